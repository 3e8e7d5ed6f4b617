/**
 * An upstream response as the step's outputs (DECISIONS.md §1): `status`, `headers` (lower-cased; a
 * repeated field joined with ", " per RFC 9110 §5.3, except `set-cookie`, kept a list) and `body`:
 * parsed when it says JSON, else UTF-8 text; null when empty. JSON with a `__proto__` key or a
 * `constructor` with a `prototype` is refused as in request bodies, but its nesting is not pre-scanned
 * (bench/proxy README "Upstream JSON checks"): V8's parser is not recursive, and a document too deep
 * to serialise fails its own request only. A parsed body keeps its text (src/json/source-text.ts).
 */
import type { HeaderValue, OutboundResponse } from '../../connectors/index.js';
import { keepSourceText, parseKeepingText } from '../../json/index.js';
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

export function joinRepeated(headers: Readonly<Record<string, HeaderValue>>): Record<string, string | readonly string[]> {
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
  return parseJson(text, type);
}

/**
 * Text that could spell a forbidden key, plainly or with escapes (which need a backslash): two cheap
 * scans first, so the stricter check runs only on such text (bench/proxy README "Upstream JSON checks").
 */
const MAYBE_FORBIDDEN = /__proto__|constructor/;

function parseJson(body: string, type: string): unknown {
  // A byte order mark is not JSON, but some servers send one (as parseJsonBody allows).
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  if (text.indexOf('\\') >= 0 || MAYBE_FORBIDDEN.test(text)) {
    const parsed = parseJsonBody(text, Number.POSITIVE_INFINITY);
    if (!parsed.ok) throw new UpstreamBodyError(`the upstream sent invalid JSON (${type}): ${parsed.message}`);
    keepSourceText(parsed.value, text);
    return parsed.value;
  }
  try {
    return parseKeepingText(text);
  } catch (error) {
    throw new UpstreamBodyError(`the upstream sent invalid JSON (${type}): ${(error as Error).message}`);
  }
}
