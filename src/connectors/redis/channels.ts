/**
 * The listeners of each channel, counted, for both stores: a channel is subscribed when its first
 * listener arrives and unsubscribed when its last one leaves, however many SSE clients share it
 * (one subscriber connection per Redis connection, never one per client).
 */
import type { MessageListener } from './types.js';

export class ChannelRegistry {
  private readonly channels = new Map<string, Set<MessageListener>>();

  /** Adds a listener; true when it is the channel's first (the channel must be subscribed). */
  add(channel: string, listener: MessageListener): boolean {
    const listeners = this.channels.get(channel);
    if (listeners !== undefined) {
      listeners.add(listener);
      return false;
    }
    this.channels.set(channel, new Set([listener]));
    return true;
  }

  /** Removes a listener; true when it was the channel's last (the channel must be unsubscribed). */
  remove(channel: string, listener: MessageListener): boolean {
    const listeners = this.channels.get(channel);
    if (listeners === undefined || !listeners.delete(listener)) return false;
    if (listeners.size > 0) return false;
    this.channels.delete(channel);
    return true;
  }

  has(channel: string): boolean {
    return this.channels.has(channel);
  }

  /**
   * Hands a message to every listener of the channel. A listener that throws does not keep the
   * message from the others (a listener is an observer's `next`: it should not throw).
   */
  dispatch(channel: string, message: string): void {
    const listeners = this.channels.get(channel);
    if (listeners === undefined) return;
    // A copy: a listener may leave (or another join) while the message is handed out.
    for (const listener of [...listeners]) {
      try {
        listener(message);
      } catch {
        // see above
      }
    }
  }

  clear(): void {
    this.channels.clear();
  }
}
