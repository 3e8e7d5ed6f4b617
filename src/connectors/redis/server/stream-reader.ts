/**
 * XREAD BLOCK on a Redis server, on a connection of its own: a blocked XREAD holds its connection
 * until it answers, so sharing the command connection would hold up every other command behind it.
 * Opened with the reader and destroyed (not QUIT, which would wait for the blocked read) with it.
 */
import type { StreamEntry, StreamReader } from '../types.js';
import type { ServerConnection } from './connection.js';

/** XRANGE's and XREAD's entries as ioredis gives them: `[id, [field, value, ...]]`. */
type RawEntry = [string, string[]];

export function streamEntries(reply: readonly RawEntry[]): StreamEntry[] {
  return reply.map(([id, fields]) => ({ id, fields }));
}

export class ServerStreamReader implements StreamReader {
  #closed = false;

  constructor(
    private readonly key: string,
    private readonly connection: ServerConnection,
    private readonly onClose: () => void,
  ) {}

  async read(after: string, count: number, blockMs: number): Promise<readonly StreamEntry[]> {
    const reply = (await this.connection.send((c) => c.xread('COUNT', count, 'BLOCK', blockMs, 'STREAMS', this.key, after))) as [string, RawEntry[]][] | null;
    // One key is read: the reply names it alone, or is nil when the block timed out.
    return reply === null || reply.length === 0 ? [] : streamEntries(reply[0]![1]);
  }

  get closed(): boolean {
    return this.#closed;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.connection.destroy();
    this.onClose();
  }
}
