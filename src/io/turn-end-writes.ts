/**
 * What is written to a held socket during one turn of the event loop leaves at the end of that turn,
 * back to back with what the other sockets of the same queue were given (README: why, and what was
 * measured).
 *
 * Under load one turn answers many requests; written at once, each answer woke a client that had gone
 * back to sleep after the previous one, and on loopback and on a VM the wake-up is most of a write's
 * cost. Held, the first write wakes the client and the others find it awake; the commands of one
 * turn to one Redis connection leave in one write.
 *
 * The writes are held at the socket, below Node's HTTP layer and the drivers: only the bytes wait,
 * never past the turn they were written in. A held write is a write in progress for Node's stream
 * (its callback comes after the bytes went out), so later writes queue behind it, backpressure and
 * `finish` work as they do for a write the kernel did not take at once, and a socket destroyed
 * meanwhile fails the write as Node fails any write to a closed socket. Writes made while the held
 * ones leave (a stream's next chunk, queued behind a held one) go out at once.
 *
 * The queue is an object its owner creates and hands to its sockets (an HTTP server to the
 * connections it accepts, a Redis store to its connections), not state of this module: two servers
 * in one process, or a server and a test, never share a queue unless they are given the same one.
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
