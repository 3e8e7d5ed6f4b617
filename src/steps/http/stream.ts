/**
 * `http` with `stream = true` (SPEC.md §4.3): the upstream body is handed on as the output `stream`, a
 * pulled byte source (src/connectors/http UpstreamBody) read from the socket only when the consumer
 * pulls, so any size passes in bounded memory at the client's pace. The step's time-out bounds the
 * wait for the head; `read_timeout` then bounds each wait for the next piece. The body is disposed
 * (the upstream connection destroyed unless read to its end) when the reader stops or ends, at the
 * latest at the step's release. Outputs: `status`, `headers` (as ./response.ts) and `stream`.
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
