/**
 * The V8 internal src/heap relies on (issue 34): `v8.setFlagsFromString('--expose-gc')` then
 * `vm.runInNewContext('gc')`. V8 gives a realm made under the flag a global `gc`; Node calls setting
 * flags after start undefined behaviour. The flag is unset at once, so user code never gets `gc` (as
 * `--expose-gc` would give it). `gc`'s options object (`type`, `execution`, `flavor`) is V8 12's
 * and later's (Node.js 22); V8 11 (Node.js 20) makes any options object a young-generation
 * collection.
 *
 * Verified: Node.js 20.20, 22.23, 24.22, 26.12. Guarded by test/portability/internals.test.ts.
 */

/** The flag under which a new realm has a global `gc`. */
export const EXPOSE_GC_FLAG = '--expose-gc';
