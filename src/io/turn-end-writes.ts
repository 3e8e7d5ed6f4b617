/**
 * What is written to a held socket during one turn of the event loop leaves at the end of that turn,
 * back to back with the other sockets of the same queue: one turn answers many requests, and writing
 * each at once woke a client per answer (src/io/README.md: why, and what was measured).
 *
 * Held at the socket, below Node's HTTP layer and the drivers, never past the turn. A held write is a
 * write in progress for Node's stream, so later writes queue behind it, backpressure and `finish`
 * work as usual, and a socket destroyed meanwhile fails it as Node would. The queue belongs to whoever
 * creates it (a server, a Redis store), never to this module: two servers share one only if given it.
 */
import type { Socket } from 'node:net';
// Node.js internals (a socket's `_write`/`_writev`): what is relied on and where it was verified.
import { type Chunks, socketWrite, socketWritev } from './internals.js';

type WriteCallback = (error?: Error | null) => void;

export class TurnEndWrites {
  /**
   * The held writes, five slots each (socket, chunks or data, encoding, callback, whether writev):
   * a flat array, so holding a write allocates nothing once the array has grown.
   */
  readonly #held: unknown[] = [];
  #scheduled = false;
  #flushing = false;
  readonly #flush = (): void => this.#flushHeld();

  /** Holds `socket`'s writes to the end of each turn, from now on. */
  hold(socket: Socket): void {
    // Own properties, set once per connection: Node's Writable calls `stream._write(...)` and
    // `stream._writev(...)`, so only the sockets given here are affected.
    socket._write = (data: unknown, encoding: BufferEncoding, callback: WriteCallback): void => {
      if (this.#flushing) socketWrite.call(socket, data, encoding, callback);
      else this.#hold(socket, data, encoding, callback, false);
    };
    socket._writev = (chunks: Chunks, callback: WriteCallback): void => {
      if (this.#flushing) socketWritev.call(socket, chunks, callback);
      else this.#hold(socket, chunks, '', callback, true);
    };
  }

  #hold(socket: Socket, data: unknown, encoding: string, callback: WriteCallback, writev: boolean): void {
    this.#held.push(socket, data, encoding, callback, writev);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#flush);
    }
  }

  /** The end of the turn: every held write goes out, in the order it was made. */
  #flushHeld(): void {
    const held = this.#held;
    this.#scheduled = false;
    this.#flushing = true;
    try {
      for (let i = 0; i < held.length; i += 5) {
        const socket = held[i] as Socket;
        const callback = held[i + 3] as WriteCallback;
        try {
          if (held[i + 4] === true) socketWritev.call(socket, held[i + 1] as Chunks, callback);
          else socketWrite.call(socket, held[i + 1], held[i + 2] as BufferEncoding, callback);
        } catch (error) {
          // Node reports write failures through the callback; a throw would be a fault of the
          // socket itself. It loses that connection, not the writes of the others.
          socket.destroy(error instanceof Error ? error : new Error(String(error)));
        }
      }
    } finally {
      held.length = 0;
      this.#flushing = false;
    }
  }
}
