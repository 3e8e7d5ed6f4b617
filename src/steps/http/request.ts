/**
 * An http step's request from its evaluated expressions: the URL checked, header values as text, and
 * a body that is sent as is when it is a string and JSON-encoded otherwise (DECISIONS.md §1), each
 * with a Content-Type unless the manifest's headers set one.
 */
import type { HeaderValue } from '../../connectors/index.js';
import { stringifyExact } from '../../json/index.js';

/** A value of the manifest the request cannot be built from: a bug of the manifest, a 500. */
export class HttpStepError extends Error {
  override readonly name = 'HttpStepError';
}

/**
 * A request value the URL cannot carry: a path segment that is `.` or `..` once interpolated (no
 * encoding keeps it one segment: `%2E%2E` is a double-dot segment too). The request's fault: a 400.
 */
export class UnsafeUrlValueError extends Error {
  override readonly name = 'UnsafeUrlValueError';
}

const JSON_TYPE = 'application/json';
const TEXT_TYPE = 'text/plain; charset=utf-8';

/**
 * The step decodes the body itself, so it asks for it uncompressed: a client's `Accept-Encoding`
 * forwarded with `headers = ctx.request.headers` would otherwise get a gzip body it cannot parse.
 */
const DECODED_HERE: ReadonlySet<string> = new Set(['accept-encoding']);

/** A `.` or `..` path segment, plain or percent-encoded (`%2e`), as the URL Standard reads one. */
const DOT_SEGMENT = /(?:^|[/\\])(?:\.|%2e){1,2}(?=[/\\]|$)/i;

/**
 * The URL expression's value, which must be an absolute http(s) URL. `pathFromValues`: values of
 * the request were interpolated into its path, encoded (src/expr url.ts), and checked here before
 * the URL is parsed, which would resolve a dot segment away.
 */
export function urlOf(value: unknown, pathFromValues = false): URL {
  if (typeof value !== 'string') throw new HttpStepError(`url must be a string, got ${describe(value)}`);
  if (pathFromValues && DOT_SEGMENT.test(pathOf(value))) {
    throw new UnsafeUrlValueError(`the url's path ${JSON.stringify(pathOf(value))} has a "." or ".." segment made of request values; the call was not sent`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new HttpStepError(`url ${JSON.stringify(value)} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new HttpStepError(`url ${JSON.stringify(value)} is not http: or https:`);
  return url;
}

/** The path of an absolute URL's text: from the first `/` after `scheme://host` to `?` or `#`. */
function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  const start = url.slice(scheme + 3).search(/[/\\?#]/);
  if (start < 0) return '';
  const rest = url.slice(scheme + 3 + start);
  const end = rest.search(/[?#]/);
  return end < 0 ? rest : rest.slice(0, end);
}

/**
 * The `headers` map with lower-cased names and text values: numbers and booleans are written out, a
 * list repeats the field, null leaves it out.
 */
export function headersOf(value: unknown): Record<string, HeaderValue> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new HttpStepError(`headers must be a map, got ${describe(value)}`);
  const out: Record<string, HeaderValue> = {};
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    const lower = name.toLowerCase();
    if (DECODED_HERE.has(lower)) continue;
    const text = Array.isArray(v) ? v.map((item) => headerText(name, item)).filter((t) => t !== undefined) : headerText(name, v);
    if (text !== undefined) out[lower] = text;
  }
  return out;
}

function headerText(name: string, value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  throw new HttpStepError(`header ${JSON.stringify(name)} must be a string, got ${describe(value)}`);
}

/** The body to send (or none), setting `content-type` in `headers` when they do not. */
export function bodyOf(value: unknown, headers: Record<string, HeaderValue>): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'string' ? value : stringifyExact(value);
  headers['content-type'] ??= typeof value === 'string' ? TEXT_TYPE : JSON_TYPE;
  return text;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a map' : `a ${typeof value}`;
}
