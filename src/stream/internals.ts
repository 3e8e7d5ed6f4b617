/**
 * The V8 internal src/stream relies on: on Node.js 20, `ArrayBuffer.prototype.transfer` borrowed from
 * a new realm created under a V8 flag set at run time (issue 34). Used by free-bytes.ts.
 *
 * What: `transfer` is standard JavaScript (ES2024) and built in from Node.js 22 (V8 12), where this
 * file relies on nothing. On Node.js 20 (V8 11.3) it exists behind `--harmony-rab-gsab-transfer`;
 * `v8.setFlagsFromString` is public, but Node documents changing flags after start as undefined
 * behaviour. Relied upon: V8 reads the flag when a realm is created (`vm.runInNewContext`), that
 * realm's `ArrayBuffer.prototype.transfer` is a function, and called on this realm's buffer with 0
 * it detaches it (byteLength 0 afterwards).
 *
 * No public way on Node.js 20 frees the bytes at once: `structuredClone(buffer, { transfer: [buffer] })`
 * detaches the buffer but moves its memory into the clone, which holds it until the collector runs.
 * Without the borrow, Node.js 20 frees as it did before (the collector), and a streaming proxy holds
 * about 64 MB more at its peaks (bench/proxy README "Streaming"). Node.js 20 is past its end of
 * life: this goes with it.
 *
 * Verified: Node.js 20.20 (borrowed), 22.23, 24.22, 26.12 (built in). Guarded by
 * test/portability/internals.test.ts.
 */

/** The V8 flag that gives a new realm `ArrayBuffer.prototype.transfer` on V8 11. */
export const TRANSFER_FLAG = '--harmony-rab-gsab-transfer';

/** The V8 major version whose realms need it (Node.js 20). */
export const TRANSFER_FLAG_V8_MAJOR = '11.';
