/**
 * `http` with `stream = true` (SPEC.md §4.3): the upstream body is not read into memory but handed
 * on as the output `stream`, a pulled byte source (src/connectors/http UpstreamBody) that a
 * `stream "raw"` step pipes to the client: a chunk is read from the upstream socket only when the
 * consumer pulls one (undici pauses the socket meanwhile), so a body of any size passes through in
 * bounded memory, at the client's pace.
 *
 * The step's time-out and signal bound the wait for the response head, as for a buffered body; past
 * it the signal still watches the body (client gone, run torn down), and the body is disposed (the
 * upstream connection destroyed unless it was read to its end) when the reader stops or ends, and
 * at the latest when the run ends (the step's release), whichever comes first.
 *
 * Once the body is read, each wait for its next piece is bounded by the step's `read_timeout` (the
 * connector's `readTimeoutMs`): an upstream that goes silent fails the stream as a time-out, and its
 * connection is destroyed.
 *
 * Outputs: `status`, `headers` (as ./response.ts gives them) and `stream`.
 */
import type { RunContext } from '../../../graph/index.js';
import type { HeaderValue, OutboundClient, UpstreamBody } from '../../connectors/index.js';
import { joinRepeated, UpstreamBodyError } from './response.js';

export interface HttpStreamOutput {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly stream: UpstreamBody;
}

export interface StreamedRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Record<string, HeaderValue>;
  readonly body: string | undefined;
  /** The longest wait for the next piece of the body once the reader asked for it. */
  readonly readTimeoutMs: number;
}

export async function streamedExchange(client: OutboundClient, request: StreamedRequest, ctx: RunContext): Promise<HttpStreamOutput> {
  const response = await client.stream({ ...request, signal: ctx.signal });
  const body = response.body;
  // Registered at once: a run torn down while the head was awaited gets it run right away.
  ctx.onRelease(() => body.dispose());
  const headers = joinRepeated(response.headers);
  const encoding = headers['content-encoding'];
  if (typeof encoding === 'string' && encoding.toLowerCase() !== 'identity') {
    // The step never asks for one (request.ts drops Accept-Encoding), and passing the bytes on
    // without their Content-Encoding would hand the client a body it cannot read.
    throw new UpstreamBodyError(`the upstream sent a body with Content-Encoding ${encoding}, which the http step does not pass on`);
  }
  return { status: response.status, headers, stream: body };
}
