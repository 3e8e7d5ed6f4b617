/**
 * The V8 internals the `svc` command relies on (issue 34): two V8 flags on bin/svc.js's first line,
 * `gc` borrowed from a realm created under `--expose-gc`, and V8 flags set for the length of that
 * collection's steps (idle-garbage.ts).
 *
 * - `--max-semi-space-size` and `--liftoff-only` (V8's, the latter undocumented by Node and read from
 *   a command line only): relied upon to be accepted (an unknown flag stops Node with "bad option");
 *   kept for the memory they save (docs/operations.md "Memory").
 * - `gc` borrowed from a realm made under `--expose-gc` (src/heap/internals.ts). Without it an idle
 *   quickstart stays at 97 MB instead of 83 (bench/users README "Cold start and footprint"). Its
 *   option `flavor: 'last-resort'` (V8 12 and later; V8 11 ignores it) gives the young generation
 *   back whatever the allocation rate: 91 to 81 MiB idle on Node.js 22 (bench/users README "The
 *   young generation given back").
 *
 * - `v8.setFlagsFromString` of FLUSH_CODE_FLAGS, then COMPACT_FLAGS, each around one collection of an
 *   idle server: V8's code flushing, which otherwise drops only bytecode unused for several
 *   collections (or, on V8 12, some time) and never baseline code, drops every function not running;
 *   the next collection compacts the pages that frees. `--stress-flush-code` is a V8 testing flag;
 *   when a flag is missing or ignored the collection frees less and nothing else changes. About
 *   3 MiB less resident on an idle quickstart (bench/users README "Boot code dropped").
 *
 * Verified: Node.js 20.20, 22.23, 24.22, 26.12. Guarded by test/portability/internals.test.ts.
 */

/** The V8 flags bin/svc.js's first line gives node, as that line spells them. */
export const COMMAND_V8_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--liftoff-only'];

/**
 * The flags under which a collection drops the compiled code of every function not running: its
 * bytecode however recently it ran, and its baseline (Sparkplug) code, which V8 never drops by default.
 */
export const FLUSH_CODE_FLAGS: readonly string[] = ['--stress-flush-code', '--flush-baseline-code'];

/** The flag under which a full collection always compacts (moves what lives out of sparse pages). */
export const COMPACT_FLAGS: readonly string[] = ['--compact-on-every-full-gc'];
