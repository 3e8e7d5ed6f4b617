/**
 * SUBSCRIBE's output `stream` (SPEC.md §6.2): an Observable of the channel's messages, decoded as
 * GET's values are (./values.ts), for a `stream "sse"` step to pipe to the client. Each subscriber
 * of the Observable is one listener on the connection's shared subscriber connection; its teardown
 * (client gone, stream ended) leaves the channel, which is unsubscribed when its last listener
 * leaves. A failed SUBSCRIBE (Redis down: dependency-unavailable) is the Observable's error.
 *
 * Messages are pushed as Redis delivers them; bounding what waits for a slow client is the stream
 * step's buffer (DECISIONS.md §6), not this source's.
 */
import { Observable } from 'rxjs';
import type { RedisHandle, RedisSubscription } from '../../connectors/index.js';
import { decodeValue } from './values.js';

export function channelMessages(handle: RedisHandle, channel: string): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    let subscription: RedisSubscription | undefined;
    let ended = false;
    handle
      .subscribe(channel, (message) => subscriber.next(decodeValue(message)))
      .then(
        (s) => {
          // Torn down while the SUBSCRIBE was under way: leave at once.
          if (ended) s.unsubscribe();
          else subscription = s;
        },
        (error: unknown) => subscriber.error(error),
      );
    return () => {
      ended = true;
      subscription?.unsubscribe();
    };
  });
}
