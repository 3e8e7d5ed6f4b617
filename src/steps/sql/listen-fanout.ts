/**
 * One listener per channel per postgres connection, shared by every listening step's consumers in
 * the process (every SSE client of every endpoint): the connector's listening connection holds one
 * LISTEN for it, and a notification's payload is decoded once here (JSON when it is JSON, else the
 * text: src/steps/redis/values.ts, the rule a Redis message follows) and the same value handed to
 * each consumer's buffer (LiveChannelSource, shared with SUBSCRIBE: its message and byte bounds,
 * push delivery and lost-source ending come with it). The channel is listened to when its first
 * consumer joins and left when its last one leaves.
 *
 * A LISTEN the connector reports lost (the listening connection dropped: what was notified until it
 * is back is missed, NOTIFY keeps nothing) ends every consumer of it (LiveChannelSource.lose, an SSE
 * client gets `event: gap`), and the channel is forgotten: a consumer that joins afterwards (the
 * client reconnecting) listens afresh, on a new connection.
 */
import type { PostgresHandle, PostgresListening } from '../../connectors/index.js';
import { LiveChannelSource } from '../redis/source.js';
import { decodeValue } from '../redis/values.js';

/** A consumer that has joined a channel, and the channel's LISTEN it must wait for. */
export interface JoinedChannel {
  readonly source: LiveChannelSource;
  /** Resolves once the channel is listened to; rejects (a ConnectorError) when it cannot be. */
  readonly listening: Promise<void>;
}

/** The channels listened to on each connection handle (a handle lives as long as its connector set). */
const fanouts = new WeakMap<PostgresHandle, Map<string, NotifyFanout>>();

/**
 * Joins `channel` on `handle`'s listening connection: notifications committed from the moment its
 * LISTEN is done are buffered for the returned source. Throws at once when listening is refused
 * now (the connection reopening after a failure), even when others already listen to the channel.
 */
export function joinNotifications(handle: PostgresHandle, channel: string, label: string): JoinedChannel {
  let channels = fanouts.get(handle);
  if (channels === undefined) {
    channels = new Map();
    fanouts.set(handle, channels);
  }
  const refusal = handle.listenRefusal();
  if (refusal !== undefined) throw refusal;
  let fanout = channels.get(channel);
  if (fanout === undefined) {
    fanout = new NotifyFanout(handle, channel, channels);
    channels.set(channel, fanout);
  }
  return { source: fanout.join(label), listening: fanout.listening };
}

class NotifyFanout {
  readonly listening: Promise<void>;
  readonly #consumers = new Set<LiveChannelSource>();
  readonly #channel: string;
  /** The connection's channels, this one among them until it is left. */
  readonly #registry: Map<string, NotifyFanout>;
  #listened: PostgresListening | undefined;
  #left = false;

  constructor(handle: PostgresHandle, channel: string, registry: Map<string, NotifyFanout>) {
    this.#channel = channel;
    this.#registry = registry;
    this.listening = handle
      .listen(channel, (payload) => this.#dispatch(payload), { onLost: (reason) => this.#lost(reason) })
      .then(
        (listened) => {
          // Every consumer left while the LISTEN was under way: leave at once.
          if (this.#left) listened.unlisten();
          else this.#listened = listened;
        },
        (error: unknown) => {
          // A failed LISTEN is not kept: the next consumer tries again.
          this.#forget();
          throw error;
        },
      );
    // Each consumer's step awaits it; one torn down meanwhile does not, and nobody else must.
    this.listening.catch(() => {});
  }

  join(label: string): LiveChannelSource {
    const source = new LiveChannelSource(label, (s) => this.#leave(s));
    this.#consumers.add(source);
    return source;
  }

  #dispatch(payload: string): void {
    const message = decodeValue(payload);
    // Measured once for every consumer: what each one's backlog grows by.
    const bytes = Buffer.byteLength(payload);
    // A consumer that overflows leaves during the loop: deleting from a Set while iterating is safe.
    for (const consumer of this.#consumers) consumer.deliver(message, bytes);
  }

  /** The LISTEN is gone: every consumer is told, and the channel forgotten. */
  #lost(reason: string): void {
    this.#forget();
    for (const consumer of this.#consumers) consumer.lose(reason);
  }

  #leave(source: LiveChannelSource): void {
    if (!this.#consumers.delete(source) || this.#consumers.size > 0) return;
    this.#forget();
    this.#listened?.unlisten();
  }

  /** No longer the channel's listener: a consumer arriving later listens afresh. */
  #forget(): void {
    this.#left = true;
    if (this.#registry.get(this.#channel) === this) this.#registry.delete(this.#channel);
  }
}
