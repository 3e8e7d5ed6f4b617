/**
 * A stream's text written past Node's response, straight to its HTTP/1.1 connection as whole chunks
 * of the chunked transfer coding (RFC 9112 §7.1). `res.write` makes four writes of each frame (the
 * size line, CRLF, the bytes, CRLF) and a tick to uncork; here it is one buffer, and a frame fanned
 * out to every client of a feed is framed once, the same buffer going to each (bench/sse README
 * "Whole chunks").
 *
 * Relies on one Node.js internal, the connection's `_httpMessage`: the response that owns it (the
 * one written now; a pipelined response waits its turn). Only while it is this response may bytes go
 * to the socket; otherwise the pump writes through the response as before. Verified: Node.js 20.20,
 * 22.23, 24.22, 26.12; guarded by test/portability/internals.test.ts.
 */
import type { ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { DirectWrites } from '../stream/index.js';
import type { HttpSocket } from './connection-states.js';

const CRLF = '\r\n';

/** The last text framed, and its chunk: a fan-out writes one text to many connections in a row. */
let lastText = '';
let lastChunk: string | Buffer = '';

/**
 * `text` as one chunk: its `size` (UTF-8 bytes) in hex, CRLF, its bytes, CRLF. Never called with ''.
 * A text seen once stays a string (the socket encodes it as it writes, cheaper than filling a buffer
 * here); the same text again is a fan-out, and its bytes are made once for every connection after.
 */
export function chunkOf(text: string, size = Buffer.byteLength(text)): string | Buffer {
  if (text === lastText) {
    if (typeof lastChunk === 'string') lastChunk = Buffer.from(lastChunk, 'utf8');
    return lastChunk;
  }
  lastText = text;
  lastChunk = size.toString(16) + CRLF + text + CRLF;
  return lastChunk;
}

class ChunkedConnection implements DirectWrites {
  constructor(
    private readonly res: ServerResponse,
    readonly drains: HttpSocket,
  ) {}

  write(text: string, size: number): boolean | undefined {
    const socket = this.drains;
    // The response ended (it stays the connection's until its last bytes are written), or the
    // connection is closing: through the response, which knows what to do.
    if (socket._httpMessage !== this.res || this.res.writableEnded || !socket.writable) return undefined;
    return socket.write(chunkOf(text, size));
  }
}

/**
 * Direct writes for `res`, called once its head has been flushed: when its body is chunked (an
 * HTTP/1.1 client, no Content-Length) and it owns its connection, so the head is on the socket ahead
 * of anything written here. Undefined otherwise (HTTP/1.0, HTTP/2, a pipelined response, inject).
 */
export function directWrites(res: ServerResponse): DirectWrites | undefined {
  const socket = res.socket as HttpSocket | null;
  // Only a connection: Fastify's inject gives responses a stand-in that discards what it is written.
  if (!(socket instanceof Socket) || socket._httpMessage !== res || !socket.writable || !res.chunkedEncoding) return undefined;
  return new ChunkedConnection(res, socket);
}
