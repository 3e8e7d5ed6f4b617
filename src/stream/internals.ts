/**
 * The V8 internal src/stream relies on: on Node.js 20, `ArrayBuffer.prototype.transfer` borrowed from
 * a new realm created under a V8 flag set at run time (issue 34). Used by free-bytes.ts.
 *
 * `transfer` (ES2024) is built in from Node.js 22; on Node.js 20 (V8 11.3) it is behind a flag that
 * Node calls undefined behaviour to set after start. Relied upon: V8 reads it when a realm is created
 * (`vm.runInNewContext`), and that realm's `transfer(0)` detaches this realm's buffer. No public way on
 * Node.js 20 frees the bytes at once (`structuredClone` moves them into the clone); without it a
 * streaming proxy holds about 64 MB more at its peaks (bench/proxy README "Streaming"). Goes with
 * Node.js 20. Verified: 20.20 (borrowed), 22.23, 24.22, 26.12; guarded by test/portability/internals.test.ts.
 */

/** The V8 flag that gives a new realm `ArrayBuffer.prototype.transfer` on V8 11. */
export const TRANSFER_FLAG = '--harmony-rab-gsab-transfer';

/** The V8 major version whose realms need it (Node.js 20). */
export const TRANSFER_FLAG_V8_MAJOR = '11.';
