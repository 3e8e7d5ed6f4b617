/**
 * What is written to a held socket during one turn of the event loop leaves at the end of that turn,
 * back to back with what the other held sockets were given (docs/performance.md: why, and what was measured).
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
 */
import { Socket } from 'node:net';

type WriteCallback = (error?: Error | null) => void;
type Chunks = Array<{ chunk: unknown; encoding: BufferEncoding }>;

const socketWrite = Socket.prototype._write;
const socketWritev = Socket.prototype._writev!;

/**
 * The held writes, five slots each (socket, chunks or data, encoding, callback, whether writev):
 * a flat array, so holding a write allocates nothing once the array has grown.
 */
const held: unknown[] = [];
let scheduled = false;
let flushing = false;

/** Holds `socket`'s writes to the end of each turn, from now on. */
export function holdWritesToTurnEnd(socket: Socket): void {
  // Own properties, set once per connection: Node's Writable calls `stream._write(...)` and
  // `stream._writev(...)`, so only the sockets given here are affected.
  socket._write = heldWrite;
  socket._writev = heldWritev;
}

function heldWrite(this: Socket, data: unknown, encoding: BufferEncoding, callback: WriteCallback): void {
  if (flushing) socketWrite.call(this, data, encoding, callback);
  else hold(this, data, encoding, callback, false);
}

function heldWritev(this: Socket, chunks: Chunks, callback: WriteCallback): void {
  if (flushing) socketWritev.call(this, chunks, callback);
  else hold(this, chunks, '', callback, true);
}

function hold(socket: Socket, data: unknown, encoding: string, callback: WriteCallback, writev: boolean): void {
  held.push(socket, data, encoding, callback, writev);
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}

/** The end of the turn: every held write goes out, in the order it was made. */
function flush(): void {
  scheduled = false;
  flushing = true;
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
    flushing = false;
  }
}
