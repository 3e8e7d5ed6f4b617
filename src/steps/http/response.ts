/**
 * An upstream response as the step's outputs (DECISIONS.md §1): `status`, `headers` (lower-cased
 * names; a repeated field joined with ", " as RFC 9110 §5.3 allows, except `set-cookie`, which
 * cannot be joined and stays a list) and `body`: parsed when the response says it is JSON (with the
 * same depth and prototype-key guards as request bodies), else UTF-8 text; null when empty.
 */
import type { HeaderValue, OutboundResponse } from '../../connectors/index.js';
import { isJsonContentType, parseJsonBody } from '../../schema/index.js';

export interface HttpOutput {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body: unknown;
}

/** The upstream's body cannot be read as it says it is: the gateway's failure, a 502. */
export class UpstreamBodyError extends Error {
  override readonly name = 'UpstreamBodyError';
}

export function outputOf(response: OutboundResponse): HttpOutput {
  const headers = joinRepeated(response.headers);
  return { status: response.status, headers, body: bodyOf(response.body, headers) };
}

function joinRepeated(headers: Readonly<Record<string, HeaderValue>>): Record<string, string | readonly string[]> {
  const out: Record<string, string | readonly string[]> = {};
  for (const name in headers) {
    const value = headers[name]!;
    out[name] = typeof value === 'string' || name === 'set-cookie' ? value : value.join(', ');
  }
  return out;
}

function bodyOf(bytes: Buffer, headers: Readonly<Record<string, string | readonly string[]>>): unknown {
  if (bytes.length === 0) return null;
  const encoding = headers['content-encoding'];
  if (typeof encoding === 'string' && encoding.toLowerCase() !== 'identity') {
    // The step never asks for a compressed body (request.ts drops Accept-Encoding).
    throw new UpstreamBodyError(`the upstream sent a body with Content-Encoding ${encoding}, which the http step does not decode`);
  }
  const type = headers['content-type'];
  const text = bytes.toString('utf8');
  if (typeof type !== 'string' || !isJsonContentType(type)) return text;
  const parsed = parseJsonBody(text);
  if (!parsed.ok) throw new UpstreamBodyError(`the upstream sent invalid JSON (${type}): ${parsed.message}`);
  return parsed.value;
}
