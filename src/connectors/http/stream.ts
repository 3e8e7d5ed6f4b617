/**
 * An upstream body as a pullable stream source (ARCHITECTURE.md "Shapes the engine needs for I/O"):
 * bytes are read from the socket only as the consumer asks for them (undici pauses the socket once
 * its 64 KiB buffer is full), and `dispose()` destroys the body, and so the upstream connection,
 * whatever happened: consumer gone, stream failed, or never read at all. The stream step plugs
 * this in as the source of `stream "raw"`.
 */
import type { Readable } from 'node:stream';
import { chunksOf, type IdleBound } from './chunks.js';

export class UpstreamBody implements AsyncIterable<Buffer> {
  /**
   * A chunk yielded is nobody else's, nor is the socket read it is a view of (undici has parsed it
   * and let go), and the pieces of one read come one after the other (./chunks.ts): whoever writes
   * them out may free each read's memory once written (graph's SourceTraits).
   */
  readonly handsOverItems = true;
  #readable: Readable;
  #cleanup: () => void;
  #mapError: (cause: unknown) => unknown;
  #idle: IdleBound | undefined;
  #iterated = false;
  #disposed = false;
  #bytes = 0;

  /** `idle`: the bound of each wait for the next chunk once asked for (./chunks.ts); none when absent. */
  constructor(readable: Readable, cleanup: () => void, mapError: (cause: unknown) => unknown, idle?: IdleBound) {
    this.#readable = readable;
    this.#cleanup = cleanup;
    this.#mapError = mapError;
    this.#idle = idle;
    // Until someone reads, an error (the caller's signal, a reset) has no listener to reach: keep it
    // from becoming an uncaught exception; iteration reports it.
    readable.on('error', () => {});
  }

  /** Bytes handed to the consumer so far. */
  get bytesRead(): number {
    return this.#bytes;
  }

  /** Releases everything (idempotent): an unfinished body is destroyed with its connection. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    if (!this.#readable.readableEnded) this.#readable.destroy();
    this.#cleanup();
  }

  /**
   * One pass only: a body cannot be read twice. Leaving the loop early (`return()`) disposes, even
   * before the first chunk was asked for (a generator's own `return()` would then skip its `finally`).
   */
  [Symbol.asyncIterator](): AsyncIterator<Buffer> {
    if (this.#iterated) throw new Error('an upstream body can be read only once');
    this.#iterated = true;
    const chunks = this.#chunks();
    return {
      next: () => chunks.next(),
      return: (value?: unknown) => {
        // Disposed first: a read waiting for the socket ends now instead of at the next chunk.
        this.dispose();
        return chunks.return(value);
      },
    };
  }

  async *#chunks(): AsyncGenerator<Buffer> {
    try {
      if (this.#disposed) return;
      for await (const chunk of chunksOf(this.#readable, this.#idle)) {
        this.#bytes += chunk.length;
        yield chunk;
      }
    } catch (error) {
      throw this.#mapError(error);
    } finally {
      this.dispose();
    }
  }
}
