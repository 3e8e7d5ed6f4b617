/**
 * The V8 internals the `svc` command relies on (issue 34): two V8 flags on bin/svc.js's first line,
 * and `gc` borrowed from a realm created under `--expose-gc` (idle-garbage.ts).
 *
 * What:
 * - `--max-semi-space-size` (Node documents it, V8 defines it: size in MiB) and `--liftoff-only`
 *   (V8 only, undocumented by Node; Node passes it to V8 from a command line, not from
 *   NODE_OPTIONS). Relied upon: both are accepted by the node that runs bin/svc.js (an unknown V8
 *   flag stops Node with "bad option"). They are public command-line options rather than code
 *   internals; kept for the memory they save (docs/operations.md "Memory": 16 MiB and 30 MB at a
 *   streaming proxy's peak).
 * - `v8.setFlagsFromString('--expose-gc')` at run time, then `vm.runInNewContext('gc')`: V8 reads the
 *   flag when a realm is created and gives that realm a global `gc`, which collects the whole heap.
 *   Node documents flags changed after start as undefined behaviour. The public way would be
 *   `--expose-gc` on the command line, which would give every realm (and every user's code) `gc`; the
 *   flag is unset at once instead. Without it an idle quickstart stays at 97 MB instead of 83
 *   (bench/users README "Cold start and footprint").
 *
 * Verified: Node.js 20.20, 22.23, 24.22, 26.12. Guarded by test/portability/internals.test.ts.
 */

/** The V8 flags bin/svc.js's first line gives node, as that line spells them. */
export const COMMAND_V8_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--liftoff-only'];

/** The flag under which a new realm has a global `gc`. */
export const EXPOSE_GC_FLAG = '--expose-gc';
