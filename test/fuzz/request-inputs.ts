/**
 * fast-check arbitraries of HTTP requests against a known set of routes: the method and path of a
 * declared route most of the time (so validation and the pipelines are reached), with path
 * parameters, query parameters, headers, bodies and content types drawn from what clients send by
 * mistake and what attackers send on purpose (huge and non-finite numbers, prototype keys, deep
 * nesting, broken percent-encoding, long values).
 */
import fc from 'fast-check';

export interface Route {
  readonly method: string;
  readonly path: string;
}

export interface FuzzRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: string;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Text a client may put anywhere: numbers at and past every limit, keywords, markup, odd Unicode. */
const NASTY = [
  '',
  ' ',
  '0',
  '-0',
  '1',
  '-1',
  '42',
  '1.5',
  '1e400',
  '-1e400',
  '1e-400',
  'NaN',
  'Infinity',
  '9007199254740991',
  '9007199254740993',
  '99999999999999999999999999',
  '0x10',
  'true',
  'false',
  'null',
  'undefined',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${ctx}',
  '%{ if true }x%{ endif }',
  '../../etc/passwd',
  '\u0000',
  '\u202e',
  '😀',
  'é',
  'a,b,c',
  'a'.repeat(300),
  `${'a'.repeat(40)}!`,
];

const text = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...NASTY) }, { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) });

/** A path segment as a client may send it: encoded, or raw and malformed. */
const segment = fc.oneof(
  { weight: 4, arbitrary: text.map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%2F', '%00', '..', '.', '%2e%2e', '%ff%fe', '%C0%AF', 'a%20b', '') },
);

function fillPath(template: string, values: readonly string[]): string {
  let i = 0;
  return template.replace(/\{[^}]+\}/g, () => values[i++ % Math.max(values.length, 1)] ?? 'x');
}

const queryPair = (names: readonly string[]) =>
  fc.tuple(
    fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...names, 'limit', 'q', '__proto__', 'constructor', 'a[b]', 'x.y') }, { weight: 1, arbitrary: text }),
    text,
    fc.boolean(),
  );

function query(pairs: readonly (readonly [string, string, boolean])[]): string {
  if (pairs.length === 0) return '';
  // Mostly encoded; sometimes raw, as a careless client writes it.
  return `?${pairs.map(([k, v, raw]) => (raw ? `${k.replace(/[#\s]/g, '')}=${v.replace(/[#\s]/g, '')}` : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)).join('&')}`;
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/problem+json',
  'application/merge-patch+json',
  'application/json; charset=latin1',
  'text/plain',
  'text/csv',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '',
  ';',
  'application/',
  'json',
];

/** A header value a client library would send: visible ASCII and spaces, no line breaks. */
const headerValue = fc.oneof(
  fc.constantFrom(...NASTY.filter((s) => /^[\x20-\x7e]*$/.test(s))),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
);
const headerName = fc.oneof(
  fc.constantFrom('x-api-key', 'authorization', 'accept', 'accept-encoding', 'if-none-match', 'x-request-id', 'origin', 'cookie', 'range', 'last-event-id'),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
);

/** JSON bodies: any JSON, objects with the declared field names, deep nesting, hostile numbers. */
const jsonBody = (fields: readonly string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.json({ maxDepth: 4 }) },
    {
      weight: 4,
      arbitrary: fc
        .dictionary(fc.constantFrom(...fields, 'extra', '__proto__', 'constructor'), fc.oneof(fc.jsonValue({ maxDepth: 3 }), text), { maxKeys: 6 })
        .map((o) => JSON.stringify(o)),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 200 }).map((n) => '['.repeat(n) + ']'.repeat(n)) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 200 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('{"n": 1e400}', '{"n": -1e400}', '{"a": 1, "a": 2}', '{"__proto__": {"x": 1}}', '{"constructor": {"prototype": {"x": 1}}}'),
    },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '{', '[1,', 'nul', '"unterminated', '\u0000', '{"a":"\\ud800"}') },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  );

export interface RouteHints {
  /** Query and header names the manifest declares (so some requests get past validation). */
  readonly names: readonly string[];
  /** Body field names the manifest declares. */
  readonly fields: readonly string[];
}

export function fuzzRequest(routes: readonly Route[], hints: RouteHints): fc.Arbitrary<FuzzRequest> {
  const names = hints.names.length > 0 ? hints.names : ['q'];
  const fields = hints.fields.length > 0 ? hints.fields : ['name'];
  const declared = fc.constantFrom(...routes);
  const path = fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(declared, fc.array(segment, { minLength: 1, maxLength: 3 }))
        .map(([r, values]) => ({ method: r.method, path: fillPath(r.path, values) })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...METHODS), fc.array(segment, { maxLength: 4 })).map(([method, segs]) => ({ method, path: `/${segs.join('/')}` })),
    },
  );
  return fc
    .record({
      target: path,
      // Mostly the route's own method; now and then another (405, HEAD, OPTIONS).
      otherMethod: fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      query: fc.array(queryPair(names), { maxLength: 5 }),
      headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 5 }),
      contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { freq: 4 }),
      body: fc.option(jsonBody(fields), { freq: 3 }),
    })
    .map(({ target, otherMethod, query: pairs, headers: hs, contentType, body }) => {
      const method = otherMethod ?? target.method;
      const headers: Record<string, string> = {};
      for (const [name, value] of hs) headers[name] = value;
      if (contentType !== null) headers['content-type'] = contentType;
      const carriesBody = body !== null && method !== 'GET' && method !== 'HEAD';
      return { method, url: target.path + query(pairs), headers, ...(carriesBody ? { payload: body } : {}) };
    });
}
