/**
 * XREAD's shared feed (../live-feed.ts): one tail per stream key per connection (XREAD BLOCK on a
 * reader connection of its own), each entry read and decoded once (./entries.ts). The tail starts
 * after the key's newest entry and always reads from the last id it handed over, so a consumer
 * joining misses nothing added after it joined, and a reconnection loses nothing (consumers just
 * wait). A key that stops being a stream (WRONGTYPE) ends every consumer as a lost source.
 */
import type { RedisHandle } from '../../connectors/index.js';
import { FeedRegistry, type JoinedFeed } from '../live-feed.js';
import { entryBytes, entryValue } from './entries.js';

const keys = new FeedRegistry<RedisHandle>();

/** Joins the tail of `key` on `handle`'s connection; `started` rejects when it cannot start. */
export function joinStream(handle: RedisHandle, key: string, label: string, limit?: number): JoinedFeed {
  return keys.join(
    handle,
    key,
    async (sink) => {
      const newest = await handle.xrange(key, { start: '-', end: '+', count: 1, newestFirst: true });
      const tail = handle.tail(key, newest[0]?.id ?? '0-0', {
        onEntries: (entries) => {
          for (const entry of entries) sink.deliver(entryValue(entry), entryBytes(entry));
        },
        onFailure: (error) => sink.lost(`the stream can no longer be read (${error.message})`),
      });
      return { stop: () => tail.close() };
    },
    label,
    limit,
  );
}
