/**
 * `sql "<name>" { listen = <channel> }`: the channel's notifications (LISTEN/NOTIFY) as the step's
 * output `stream`, a live pulled source like SUBSCRIBE's (src/steps/live-source.ts): a `stream`
 * step starts its response at once and writes each notification as it comes. Publishing is any sql
 * step's `SELECT pg_notify(@channel, @payload)` (or `NOTIFY`), delivered when its transaction
 * commits, never when it rolls back (PostgreSQL's rule).
 *
 * The step listens when it runs and waits for the LISTEN: the database unreachable fails the step
 * (dependency-unavailable, a 503 before any byte is sent), and every notification committed once it
 * has answered reaches the stream. The channel is left when the stream's reader stops, or when the
 * run ends (the step's release), whichever comes first. A lost listening connection ends the stream
 * (sse: `event: gap`, then the end), since NOTIFY keeps nothing for the time it was down.
 */
import type { RunContext } from '../../../graph/index.js';
import type { PostgresHandle } from '../../connectors/index.js';
import type { Expr } from '../../model/index.js';
import type { LiveChannelSource } from '../live-source.js';
import { textOperand } from '../text-values.js';
import type { EndpointScope } from '../contract.js';
import { joinNotifications } from './listen-fanout.js';

/** PostgreSQL's identifier length: a longer LISTEN name would be cut to another channel's name. */
const MAX_CHANNEL_BYTES = 63;

export interface ListenOutput {
  readonly stream: LiveChannelSource;
}

export function listenChannel(handle: PostgresHandle, channel: Expr, step: string): (scope: EndpointScope, ctx: RunContext) => Promise<ListenOutput> {
  return (scope, ctx) => {
    const name = channelName(channel.evaluate(scope), step);
    // Joined before the wait, so a run torn down meanwhile leaves the channel at once.
    const { source, started: listening } = joinNotifications(handle, name, step);
    ctx.onRelease(() => source.release());
    return listening.then(() => ({ stream: source }));
  };
}

/** A channel as the expression gave it: text (or a number or boolean), not empty, at most 63 bytes. */
function channelName(value: unknown, step: string): string {
  const name = textOperand(value, 'channel', step);
  if (name === '') throw new TypeError(`${step}: the channel to listen to is empty`);
  const bytes = Buffer.byteLength(name);
  if (bytes > MAX_CHANNEL_BYTES) throw new TypeError(`${step}: the channel name is ${bytes} bytes long; PostgreSQL's are at most ${MAX_CHANNEL_BYTES}`);
  return name;
}
