/**
 * LISTEN's shared feed (src/steps/live-feed.ts): one LISTEN per channel on the connection's
 * listening connection, whatever the number of consumers; a notification's payload is decoded once
 * (JSON when it is JSON, else the text: ../text-values.ts, the rule a Redis message follows). A
 * LISTEN the connector reports lost (the listening connection dropped: NOTIFY keeps nothing) ends
 * every consumer (an SSE client gets `event: gap`), and the channel is forgotten: a consumer that
 * joins afterwards listens afresh, on a new connection.
 */
import type { PostgresHandle } from '../../connectors/index.js';
import { FeedRegistry, type JoinedFeed } from '../live-feed.js';
import { decodeValue } from '../text-values.js';

const channels = new FeedRegistry<PostgresHandle>();

/**
 * Joins `channel` on `handle`'s listening connection: notifications committed from the moment its
 * LISTEN is done are buffered for the returned source. Throws at once when listening is refused
 * now (the connection reopening after a failure), even when others already listen to the channel.
 */
export function joinNotifications(handle: PostgresHandle, channel: string, label: string): JoinedFeed {
  const refusal = handle.listenRefusal();
  if (refusal !== undefined) throw refusal;
  return channels.join(
    handle,
    channel,
    async (sink) => {
      const listened = await handle.listen(channel, (payload) => sink.deliver(decodeValue(payload), Buffer.byteLength(payload)), { onLost: sink.lost });
      return { stop: () => listened.unlisten() };
    },
    label,
  );
}
