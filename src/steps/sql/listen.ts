/**
 * `sql "<name>" { listen = <channel> }`: the channel's notifications as the output `stream`, a live
 * source like SUBSCRIBE's (../live-source.ts). Publishing is any sql step's `pg_notify` (or `NOTIFY`),
 * delivered on commit only. The step waits for its LISTEN, so the database unreachable is a 503 before
 * any byte; the channel is left when the reader stops or the run ends. A lost listening connection
 * ends the stream (sse: `event: gap`): NOTIFY keeps nothing for the time it was down.
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
