/**
 * V8's garbage collector asked to run, by the server's idle collection (src/cli) and by cursors
 * whose driver leaves garbage V8 would keep too long (src/connectors): standalone, node:v8 and
 * node:vm only.
 */
export { borrowGc, type Gc, type GcOptions } from './borrowed-gc.js';
