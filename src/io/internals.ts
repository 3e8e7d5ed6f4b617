/**
 * The Node.js internal src/io relies on: a socket's `_write` and `_writev` (issue 34).
 *
 * What: `TurnEndWrites.hold(socket)` replaces these two methods on one socket (own properties) and
 * calls the prototype's originals at the end of the turn. It relies on three things Node's streams
 * do not promise as API (they are the methods a Writable implementation provides, not ones a user
 * replaces from outside):
 * - `net.Socket.prototype` has both `_write` and `_writev` (libuv's write and scatter write);
 * - `Writable` calls them through the stream (`stream._write(...)`, `stream._writev(...)`), so an
 *   own property on one socket takes precedence over the prototype's;
 * - Node's HTTP layer and the Redis driver write through the socket's Writable (`socket.write`,
 *   `cork`/`uncork`), never to the handle directly.
 *
 * The public way (`socket.cork()` at the first write of a turn, `uncork()` at its end) still needs a
 * hook on every write to know that one happened (it wraps `socket.write`), and costs 11 to 14 % more
 * CPU per request: bench/health README "Public APIs first".
 *
 * Verified: Node.js 20.20, 22.23, 24.22, 26.12. What holding gives: bench/health README "Writes held
 * to the end of the turn". Guarded by test/portability/internals.test.ts.
 */
import { Socket } from 'node:net';

type WriteCallback = (error?: Error | null) => void;
export type Chunks = Array<{ chunk: unknown; encoding: BufferEncoding }>;

/** The prototype's `_write`: what a held write finally calls. */
export const socketWrite: (this: Socket, data: unknown, encoding: BufferEncoding, callback: WriteCallback) => void = Socket.prototype._write;

/** The prototype's `_writev` (always present on `net.Socket`; the guard test fails if it goes). */
export const socketWritev: (this: Socket, chunks: Chunks, callback: WriteCallback) => void = Socket.prototype._writev!;
