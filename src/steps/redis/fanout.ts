/**
 * SUBSCRIBE's shared feed (src/steps/live-feed.ts): one Redis subscription per channel per
 * connection, whatever the number of consumers; a published message is decoded once
 * (../text-values.ts). A subscription the connector reports lost (the subscriber connection
 * dropped) ends every consumer, and the channel is left.
 */
import type { RedisHandle } from '../../connectors/index.js';
import { FeedRegistry, type JoinedFeed } from '../live-feed.js';
import { decodeValue } from '../text-values.js';

const channels = new FeedRegistry<RedisHandle>();

/**
 * Joins `channel` on `handle`'s connection: messages published from the moment the subscription is
 * live are buffered for the returned source. Refused at once when Redis is known to be down, even
 * when others already listen to the channel (their subscription would resume only once it is back).
 */
export function joinChannel(handle: RedisHandle, channel: string, label: string, limit?: number): JoinedFeed {
  if (channels.get(handle, channel) !== undefined) {
    const refusal = handle.subscribeRefusal();
    if (refusal !== undefined) throw refusal;
  }
  return channels.join(
    handle,
    channel,
    async (sink) => {
      const subscription = await handle.subscribe(channel, (text) => sink.deliver(decodeValue(text), Buffer.byteLength(text)), { onLost: sink.lost });
      return { stop: () => subscription.unsubscribe() };
    },
    label,
    limit,
  );
}
