/**
 * Response headers computed by a manifest expression (`respond`'s and `stream`'s `headers`): values
 * are strings (numbers and bools converted, null drops the header), names and values checked here (RFC
 * 9110 token, no CR/LF) so a bad header fails its step, not the response half-way. Framing and
 * hop-by-hop headers (RFC 9110 §7.6.1, Content-Length, Transfer-Encoding) are refused: computed from
 * request data, they could put `chunked` beside the server's Content-Length, a response a proxy
 * splits in two. A constant one is a boot error.
 */
import { validateHeaderName, validateHeaderValue } from 'node:http';

/** Lower-case names a manifest may not set. */
const SERVER_OWNED: ReadonlySet<string> = new Set([
  'connection',
  'content-length',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export function checkHeaders(value: unknown, fail: (message: string) => Error): Record<string, string> | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw fail('headers must be a map of strings');
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === null || v === undefined) continue;
    let text: string;
    if (typeof v === 'string') text = v;
    else if (typeof v === 'number' || typeof v === 'boolean') text = String(v);
    else throw fail(`header "${name}" must be a string`);
    try {
      validateHeaderName(name);
      validateHeaderValue(name, text);
    } catch (error) {
      throw fail(`header ${JSON.stringify(name)}: ${(error as Error).message}`);
    }
    if (SERVER_OWNED.has(name.toLowerCase())) {
      throw fail(`header ${JSON.stringify(name)} frames the message or manages the connection: the server sets it, a manifest may not`);
    }
    out[name] = text;
  }
  return out;
}
