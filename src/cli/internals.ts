/**
 * The V8 internals the `svc` command relies on (issue 34): two V8 flags on bin/svc.js's first line,
 * and `gc` borrowed from a realm created under `--expose-gc` (idle-garbage.ts).
 *
 * - `--max-semi-space-size` and `--liftoff-only` (V8's, the latter undocumented by Node and read from
 *   a command line only): relied upon to be accepted (an unknown flag stops Node with "bad option");
 *   kept for the memory they save (docs/operations.md "Memory").
 * - `v8.setFlagsFromString('--expose-gc')` then `vm.runInNewContext('gc')`: V8 gives a realm made
 *   under the flag a global `gc`; Node calls setting flags after start undefined behaviour. The flag is
 *   unset at once, so user code never gets `gc` (as `--expose-gc` would give it). Without it an idle
 *   quickstart stays at 97 MB instead of 83 (bench/users README "Cold start and footprint"). Its
 *   option `flavor: 'last-resort'` (V8 12 and later; V8 11 ignores it) gives the young generation
 *   back whatever the allocation rate: 91 to 81 MiB idle on Node.js 22 (bench/users README "The
 *   young generation given back").
 *
 * Verified: Node.js 20.20, 22.23, 24.22, 26.12. Guarded by test/portability/internals.test.ts.
 */

/** The V8 flags bin/svc.js's first line gives node, as that line spells them. */
export const COMMAND_V8_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--liftoff-only'];

/** The flag under which a new realm has a global `gc`. */
export const EXPOSE_GC_FLAG = '--expose-gc';
