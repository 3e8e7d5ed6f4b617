/**
 * The one subscriber connection of a Redis connection (subscribe mode can do nothing else), shared by
 * every listener of every channel and opened by the first subscription; SUBSCRIBE and UNSUBSCRIBE
 * follow a channel's first and last listener (../channels.ts).
 *
 * Pub/sub keeps nothing, so a drop is not kept quiet: every `onLost` is told, one warning per channel.
 * ioredis still resubscribes on reconnect (`autoResubscribe`) for listeners that did not ask to be
 * told; a channel whose UNSUBSCRIBE was lost meanwhile is unsubscribed again once the connection is back.
 */
import type { ConnectorLogger } from '../../types.js';
import { ChannelRegistry } from '../channels.js';
import type { LossListener, MessageListener, RedisSubscription } from '../types.js';
import type { ServerConnection } from './connection.js';

export class SharedSubscriber {
  private connection: ServerConnection | undefined;
  private readonly registry = new ChannelRegistry();
  /** Each listened channel's SUBSCRIBE, under way or done: a second listener waits for the same. */
  private readonly subscribing = new Map<string, Promise<unknown>>();
  /** Channels left while their UNSUBSCRIBE could not be sent. */
  private readonly orphans = new Set<string>();
  /** The listeners that asked to hear of a loss, by channel (each is also in the registry). */
  private readonly lossListeners = new Map<string, Map<MessageListener, LossListener>>();

  constructor(
    private readonly open: () => ServerConnection,
    private readonly logger?: ConnectorLogger,
    /** `<kind>.<name>`, for the log. */
    private readonly key = 'redis',
  ) {}

  async subscribe(channel: string, listener: MessageListener, onLost?: LossListener): Promise<RedisSubscription> {
    const connection = this.connected();
    const refusal = connection.refusal();
    if (refusal !== undefined) throw refusal;
    // A listener object of its own: the same function may listen twice and leave twice.
    const own: MessageListener = (message) => listener(message);
    if (onLost !== undefined) {
      let listeners = this.lossListeners.get(channel);
      if (listeners === undefined) this.lossListeners.set(channel, (listeners = new Map()));
      listeners.set(own, onLost);
    }
    if (this.registry.add(channel, own)) {
      this.orphans.delete(channel);
      this.subscribing.set(
        channel,
        connection.send((client) => client.subscribe(channel)),
      );
    }
    try {
      await this.subscribing.get(channel);
    } catch (error) {
      this.leave(channel, own);
      throw error;
    }
    let active = true;
    return {
      unsubscribe: () => {
        if (!active) return;
        active = false;
        this.leave(channel, own);
      },
    };
  }

  /** Why a subscription would be refused now; none while the connection is not opened yet. */
  refusal(): Error | undefined {
    return this.connection?.refusal();
  }

  async close(): Promise<void> {
    this.registry.clear();
    this.subscribing.clear();
    this.lossListeners.clear();
    await this.connection?.close();
  }

  private leave(channel: string, listener: MessageListener): void {
    const listeners = this.lossListeners.get(channel);
    if (listeners?.delete(listener) === true && listeners.size === 0) this.lossListeners.delete(channel);
    if (!this.registry.remove(channel, listener)) return;
    this.subscribing.delete(channel);
    this.connection!.send((client) => client.unsubscribe(channel)).catch(() => {
      this.orphans.add(channel);
    });
  }

  private connected(): ServerConnection {
    if (this.connection !== undefined) return this.connection;
    const connection = this.open();
    connection.client.on('message', (channel: string, message: string) => this.registry.dispatch(channel, message));
    // ioredis resubscribes right after it emits 'ready', in the same tick: run after it, so the
    // UNSUBSCRIBE of an orphan follows its resubscription instead of preceding it.
    connection.client.on('ready', () => queueMicrotask(() => this.unsubscribeOrphans()));
    // The socket closed: whatever is published until the resubscription is missed.
    connection.client.on('close', () => this.lost());
    this.connection = connection;
    return connection;
  }

  /**
   * Tells every listener that asked (`onLost`) that its subscription was lost, once: each is
   * forgotten here as it is told, and leaves by its own `unsubscribe`. One warning per channel.
   */
  private lost(): void {
    if (this.lossListeners.size === 0) return;
    const lost = [...this.lossListeners];
    this.lossListeners.clear();
    for (const [channel, listeners] of lost) {
      this.logger?.warn(
        { connection: this.key, channel, listeners: listeners.size },
        'redis subscription lost (the subscriber connection dropped); messages published until it is back are missed, its streams are ended so that clients reconnect',
      );
      for (const onLost of listeners.values()) {
        try {
          onLost('the subscription to Redis was lost; messages may have been missed');
        } catch {
          // A listener that throws does not keep the others from hearing of it.
        }
      }
    }
  }

  private unsubscribeOrphans(): void {
    for (const channel of this.orphans) {
      this.orphans.delete(channel);
      if (this.registry.has(channel)) continue;
      this.connection!.send((client) => client.unsubscribe(channel)).catch(() => {
        this.orphans.add(channel);
      });
    }
  }
}
