/**
 * One listener per channel per connection, shared by every SUBSCRIBE consumer in the process (every
 * SSE client of every endpoint): the connection's subscriber (src/connectors/redis) holds one Redis
 * subscription for it, and a published message is decoded once here (./values.ts) and the same
 * value handed to each consumer's buffer (./source.ts), so a publish costs one decode, not one per
 * client. The channel is subscribed when its first consumer joins and left when its last one leaves.
 *
 * A subscription the connector reports lost (the subscriber connection dropped: messages published
 * until it is back are missed) ends every consumer of it (LiveChannelSource.lose), and the channel
 * is left: a consumer that joins afterwards (the client reconnecting) starts a new subscription.
 */
import type { RedisHandle, RedisSubscription } from '../../connectors/index.js';
import { LiveChannelSource } from './source.js';
import { decodeValue } from './values.js';

/** A consumer that has joined a channel, and the channel's subscription it must wait for. */
export interface Joined {
  readonly source: LiveChannelSource;
  /** Resolves once the channel is subscribed; rejects (a ConnectorError) when it cannot be. */
  readonly subscribed: Promise<void>;
}

/** The channels listened to on each connection handle (a handle lives as long as its connector set). */
const fanouts = new WeakMap<RedisHandle, Map<string, ChannelFanout>>();

/**
 * Joins `channel` on `handle`'s connection: messages published from the moment the subscription is
 * live are buffered for the returned source. Rejects at once when Redis is known to be down, even
 * when others already listen to the channel (their subscription would resume only once it is back).
 */
export function joinChannel(handle: RedisHandle, channel: string, label: string, limit?: number): Joined {
  let channels = fanouts.get(handle);
  if (channels === undefined) {
    channels = new Map();
    fanouts.set(handle, channels);
  }
  let fanout = channels.get(channel);
  if (fanout !== undefined) {
    const refusal = handle.subscribeRefusal();
    if (refusal !== undefined) throw refusal;
  } else {
    fanout = new ChannelFanout(handle, channel, channels);
    channels.set(channel, fanout);
  }
  const source = fanout.join(label, limit);
  return { source, subscribed: fanout.subscribed };
}

class ChannelFanout {
  readonly subscribed: Promise<void>;
  readonly #consumers = new Set<LiveChannelSource>();
  readonly #channel: string;
  /** The connection's channels, this one among them until it is left. */
  readonly #registry: Map<string, ChannelFanout>;
  #subscription: RedisSubscription | undefined;
  #left = false;

  constructor(handle: RedisHandle, channel: string, registry: Map<string, ChannelFanout>) {
    this.#channel = channel;
    this.#registry = registry;
    this.subscribed = handle
      .subscribe(channel, (text) => this.#dispatch(text), { onLost: (reason) => this.#lost(reason) })
      .then(
        (subscription) => {
          // Every consumer left while the SUBSCRIBE was under way: leave at once.
          if (this.#left) subscription.unsubscribe();
          else this.#subscription = subscription;
        },
        (error: unknown) => {
          // A failed SUBSCRIBE is not kept: the next consumer tries again.
          this.#forget();
          throw error;
        },
      );
    // Each consumer's step awaits it; one torn down meanwhile does not, and nobody else must.
    this.subscribed.catch(() => {});
  }

  join(label: string, limit: number | undefined): LiveChannelSource {
    const source = new LiveChannelSource(label, (s) => this.#leave(s), limit);
    this.#consumers.add(source);
    return source;
  }

  #dispatch(text: string): void {
    const message = decodeValue(text);
    // Measured once for every consumer: what each one's backlog grows by (LiveChannelSource.limitBacklog).
    const bytes = Buffer.byteLength(text);
    // A consumer that overflows leaves during the loop: deleting from a Set while iterating is safe.
    for (const consumer of this.#consumers) consumer.deliver(message, bytes);
  }

  /** The subscription is gone: every consumer is told, and the channel left (each one's `#leave`). */
  #lost(reason: string): void {
    this.#forget();
    for (const consumer of this.#consumers) consumer.lose(reason);
  }

  #leave(source: LiveChannelSource): void {
    if (!this.#consumers.delete(source) || this.#consumers.size > 0) return;
    this.#forget();
    this.#subscription?.unsubscribe();
  }

  /** No longer the channel's listener: a consumer arriving later starts a new subscription. */
  #forget(): void {
    this.#left = true;
    if (this.#registry.get(this.#channel) === this) this.#registry.delete(this.#channel);
  }
}
