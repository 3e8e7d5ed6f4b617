/**
 * XREAD's shared feed (src/steps/live-feed.ts): one tail per stream key per connection
 * (src/connectors/redis: XREAD BLOCK on a reader connection of its own), whatever the number of
 * consumers; each entry is read and decoded once (./entries.ts: `{ id, fields }`).
 *
 * The tail starts after the key's newest entry (XREVRANGE COUNT 1): every entry added once its step
 * has answered reaches it. A consumer joining a running tail gets the entries the tail reads from
 * then on: the tail reads from the last id it handed over, so an entry added after the join is never
 * behind it. A reconnection loses nothing (the tail reads again from its last id) and is not a loss:
 * consumers just wait. A key that stops being a stream (WRONGTYPE) ends every consumer as a lost
 * source (sse: `event: gap`, then the end).
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
