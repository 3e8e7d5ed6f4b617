/**
 * The Node.js internal src/io relies on: a socket's `_write` and `_writev` (issue 34).
 *
 * `TurnEndWrites.hold(socket)` replaces both on one socket (own properties) and calls the prototype's
 * at the end of the turn. Not promised as API: that `net.Socket.prototype` has both, that `Writable`
 * calls them through the stream (so an own property wins), and that Node's HTTP layer and the Redis
 * driver write through the Writable, never the handle. The public `cork()`/`uncork()` still needs a
 * hook on every write and costs 11 to 14 % more CPU per request (bench/health README "Public APIs
 * first"). Verified: Node.js 20.20, 22.23, 24.22, 26.12; guarded by test/portability/internals.test.ts.
 */
import { Socket } from 'node:net';

type WriteCallback = (error?: Error | null) => void;
export type Chunks = Array<{ chunk: unknown; encoding: BufferEncoding }>;

/** The prototype's `_write`: what a held write finally calls. */
export const socketWrite: (this: Socket, data: unknown, encoding: BufferEncoding, callback: WriteCallback) => void = Socket.prototype._write;

/** The prototype's `_writev` (always present on `net.Socket`; the guard test fails if it goes). */
export const socketWritev: (this: Socket, chunks: Chunks, callback: WriteCallback) => void = Socket.prototype._writev!;
