/**
 * Following one stream key (RedisHandle.tail), for both stores: blocking reads (XREAD BLOCK) on a
 * reader of its own, each from the last id handed over. That id is the whole state, so a lost
 * connection loses nothing (the read is made again once it is back, none twice) and nobody is told.
 * An error reply (WRONGTYPE) would fail again: the listener is told (onFailure), the reader closed.
 */
import { ConnectorCategory } from '../errors.js';
import { classifyRedisError, replyCodeOf } from './errors.js';
import type { StreamEntry, StreamReader, StreamTail, TailListener } from './types.js';

/** Entries one read may bring: a bound on the memory of a burst, not on throughput (reads follow at once). */
export const TAIL_READ_COUNT = 1000;
/**
 * How long one read blocks before it is made again. Not a latency: an entry wakes the read at once.
 * It bounds how long a silently dead socket (no RST) could hold the tail.
 */
export const TAIL_BLOCK_MS = 15_000;
const FIRST_RETRY_DELAY_MS = 50;
const MAX_RETRY_DELAY_MS = 1000;

export class StreamTailLoop implements StreamTail {
  #lastId: string;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;
  #wake: (() => void) | undefined;

  constructor(
    private readonly reader: StreamReader,
    after: string,
    private readonly listener: TailListener,
  ) {
    this.#lastId = after;
    void this.#run();
  }

  get lastId(): string {
    return this.#lastId;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#wake?.();
    this.reader.close();
  }

  async #run(): Promise<void> {
    let delay = FIRST_RETRY_DELAY_MS;
    while (!this.#closed) {
      let entries: readonly StreamEntry[];
      try {
        entries = await this.reader.read(this.#lastId, TAIL_READ_COUNT, TAIL_BLOCK_MS);
      } catch (error) {
        // The store closed under the tail (shutdown): the reader will not come back.
        if (this.#closed || this.reader.closed) return;
        if (isFinal(error)) {
          this.close();
          this.listener.onFailure(error as Error);
          return;
        }
        await this.#pause(delay);
        delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
        continue;
      }
      delay = FIRST_RETRY_DELAY_MS;
      if (this.reader.closed) return;
      if (this.#closed || entries.length === 0) continue;
      this.#lastId = entries[entries.length - 1]!.id;
      try {
        this.listener.onEntries(entries);
      } catch {
        // A listener that throws (it should not) does not stop the tail.
      }
    }
  }

  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
      this.#retry = setTimeout(resolve, ms);
    });
  }
}

/** An error reply the server would give again (WRONGTYPE, a bad id), unlike an unavailable server. */
function isFinal(error: unknown): boolean {
  if (replyCodeOf(error) === undefined) return false;
  const category = classifyRedisError(error);
  return category !== ConnectorCategory.unavailable && category !== ConnectorCategory.timeout;
}
