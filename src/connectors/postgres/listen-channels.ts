/**
 * What both listeners (./listener.ts on a server, ./embedded-listener.ts on PGlite) do when their
 * LISTEN is lost: every channel is forgotten, one warning each, and each of its listeners is told,
 * so that its stream ends and its client reconnects (and listens afresh).
 */
import type { ConnectorLogger } from '../types.js';
import type { Where } from './execute.js';
import type { NotificationListener } from './types.js';

/** Told, once, that the listening connection dropped: notifications may have been missed. */
export type ListenLossListener = (reason: string) => void;

export interface ListenChannel {
  readonly listeners: Map<NotificationListener, ListenLossListener | undefined>;
}

/** Empties `channels`, warning once per channel and telling every listener `told`. */
export function loseChannels(channels: Map<string, ListenChannel>, where: Where, logger: ConnectorLogger | undefined, reason: string, told: string): void {
  const lost = [...channels];
  channels.clear();
  for (const [channel, entry] of lost) {
    logger?.warn(
      { connection: where.key, channel, listeners: entry.listeners.size, reason },
      'postgres LISTEN lost (the listening connection dropped); notifications sent until it is back are missed, its streams are ended so that clients reconnect',
    );
    for (const onLost of entry.listeners.values()) {
      try {
        onLost?.(told);
      } catch {
        // A listener that throws does not keep the others from hearing of it.
      }
    }
  }
}
