/**
 * The one subscriber connection of a Redis connection (a connection in subscribe mode can do
 * nothing else), shared by every listener of every channel: SUBSCRIBE when a channel's first
 * listener arrives, UNSUBSCRIBE when its last one leaves (../channels.ts). Opened on the first
 * subscription, so a service that never subscribes holds one connection, not two.
 *
 * Outages: ioredis resubscribes every channel it was subscribed to when it reconnects
 * (`autoResubscribe`), so listeners live through a server restart (messages published meanwhile are
 * lost, as pub/sub always loses them). A channel whose UNSUBSCRIBE was lost in an outage is
 * resubscribed by that too; it is unsubscribed again once the connection is back.
 */
import { ChannelRegistry } from '../channels.js';
import type { MessageListener, RedisSubscription } from '../types.js';
import type { ServerConnection } from './connection.js';

export class SharedSubscriber {
  private connection: ServerConnection | undefined;
  private readonly registry = new ChannelRegistry();
  /** Each listened channel's SUBSCRIBE, under way or done: a second listener waits for the same. */
  private readonly subscribing = new Map<string, Promise<unknown>>();
  /** Channels left while their UNSUBSCRIBE could not be sent. */
  private readonly orphans = new Set<string>();

  constructor(private readonly open: () => ServerConnection) {}

  async subscribe(channel: string, listener: MessageListener): Promise<RedisSubscription> {
    const connection = this.connected();
    const refusal = connection.refusal();
    if (refusal !== undefined) throw refusal;
    // A listener object of its own: the same function may listen twice and leave twice.
    const own: MessageListener = (message) => listener(message);
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
    await this.connection?.close();
  }

  private leave(channel: string, listener: MessageListener): void {
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
    this.connection = connection;
    return connection;
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
