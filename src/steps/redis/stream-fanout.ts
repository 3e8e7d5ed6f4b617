/**
 * XREAD's output `stream`: one tail per stream key per connection, shared by every consumer in the
 * process (every SSE client of every endpoint), as ./fanout.ts shares a pub/sub channel. The tail
 * (src/connectors/redis: XREAD BLOCK on a reader connection of its own) reads each entry once,
 * decodes it once (./entries.ts: `{ id, fields }`) and hands the same value to each consumer's
 * buffer (./source.ts, bounded in messages and bytes as a channel's consumers are).
 *
 * The first consumer of a key starts the tail after the key's newest entry (XREVRANGE COUNT 1):
 * every entry added once its step has answered reaches it. A consumer joining a running tail gets
 * the entries the tail reads from then on: the tail reads from the last id it handed over, so an
 * entry added after the join is never behind it. The tail stops when the last consumer leaves.
 *
 * A reconnection loses nothing (the tail reads again from its last id) and is not a loss: consumers
 * just wait. A key that stops being a stream (WRONGTYPE) ends every consumer as a lost source (sse:
 * `event: gap`, then the end), and the key is forgotten so that a reconnecting client starts afresh.
 */
import type { RedisHandle, StreamEntry, StreamTail } from '../../connectors/index.js';
import { entryBytes, entryValue } from './entries.js';
import type { Joined } from './fanout.js';
import { LiveChannelSource } from './source.js';

/** The keys followed on each connection handle (a handle lives as long as its connector set). */
const fanouts = new WeakMap<RedisHandle, Map<string, StreamFanout>>();

/** Joins the tail of `key` on `handle`'s connection; `subscribed` rejects when it cannot start. */
export function joinStream(handle: RedisHandle, key: string, label: string, limit?: number): Joined {
  let keys = fanouts.get(handle);
  if (keys === undefined) {
    keys = new Map();
    fanouts.set(handle, keys);
  }
  let fanout = keys.get(key);
  if (fanout === undefined) {
    fanout = new StreamFanout(handle, key, keys);
    keys.set(key, fanout);
  }
  return { source: fanout.join(label, limit), subscribed: fanout.started };
}

class StreamFanout {
  readonly started: Promise<void>;
  readonly #consumers = new Set<LiveChannelSource>();
  readonly #key: string;
  readonly #registry: Map<string, StreamFanout>;
  #tail: StreamTail | undefined;
  #left = false;

  constructor(handle: RedisHandle, key: string, registry: Map<string, StreamFanout>) {
    this.#key = key;
    this.#registry = registry;
    this.started = handle.xrange(key, { start: '-', end: '+', count: 1, newestFirst: true }).then(
      (newest) => {
        // Every consumer left while the newest id was asked for: nothing to follow.
        if (this.#left) return;
        this.#tail = handle.tail(key, newest[0]?.id ?? '0-0', {
          onEntries: (entries) => this.#dispatch(entries),
          onFailure: (error) => this.#lost(`the stream can no longer be read (${error.message})`),
        });
      },
      (error: unknown) => {
        // A tail that could not start is not kept: the next consumer tries again.
        this.#forget();
        throw error;
      },
    );
    // Each consumer's step awaits it; one torn down meanwhile does not, and nobody else must.
    this.started.catch(() => {});
  }

  join(label: string, limit: number | undefined): LiveChannelSource {
    const source = new LiveChannelSource(label, (s) => this.#leave(s), limit);
    this.#consumers.add(source);
    return source;
  }

  #dispatch(entries: readonly StreamEntry[]): void {
    for (const entry of entries) {
      const value = entryValue(entry);
      const bytes = entryBytes(entry);
      // A consumer that overflows leaves during the loop: deleting from a Set while iterating is safe.
      for (const consumer of this.#consumers) consumer.deliver(value, bytes);
    }
  }

  #lost(reason: string): void {
    this.#forget();
    for (const consumer of this.#consumers) consumer.lose(reason);
  }

  #leave(source: LiveChannelSource): void {
    if (!this.#consumers.delete(source) || this.#consumers.size > 0) return;
    this.#forget();
  }

  /** No longer the key's tail: it stops, and a consumer arriving later starts a new one. */
  #forget(): void {
    this.#left = true;
    this.#tail?.close();
    if (this.#registry.get(this.#key) === this) this.#registry.delete(this.#key);
  }
}
