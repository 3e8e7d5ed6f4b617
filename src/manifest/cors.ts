/**
 * `cors { allowed_origins, allowed_methods, allowed_headers, exposed_headers, allow_credentials,
 * max_age }` (docs/cors.md; the Go project's names, so its manifests work as written). In the server
 * block the default policy; in an endpoint or route block its own, missing attributes from the
 * server's (`cors = false` turns it off). Checked here at boot: origins that can never match a
 * browser's `Origin`, methods svc does not route, header names that are not tokens.
 */
import type { Attribute, Block } from '../hcl/index.js';
import type { Range } from '../diag/index.js';
import { blockHeader, decodeBody, type BodySchema } from './body.js';
import type { DecodeScope } from './scope.js';
import type { CorsModel, ServerModel } from './types.js';
import { invalidValue, readBool, readDuration, readInt, readStatic, typeError } from './values.js';

const CORS_BODY: BodySchema = {
  attributes: { allowed_origins: {}, allowed_methods: {}, allowed_headers: {}, exposed_headers: {}, allow_credentials: {}, max_age: {} },
};

/** Methods svc routes (route-label.ts), the ones a preflight may ask for. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Request headers a page most often sends beyond the CORS-safelisted ones (the Go project's CORS
 * middlewares allow these by default): JSON bodies need `Content-Type`, and svc reads `X-Request-Id`.
 */
const DEFAULT_HEADERS = ['accept', 'content-type', 'x-requested-with', 'x-request-id'];

/** Ten minutes: Chromium keeps a preflight at most two hours, Firefox a day; a policy change shows within this. */
const DEFAULT_MAX_AGE = 600;
/** A day, Firefox's own ceiling; more is a typo (a value in milliseconds). */
const MAX_AGE_BOUNDS = { min: 0, max: 86_400 };

/** RFC 9110 §5.6.2: a header name is a token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * `scheme://host[:port]` as a browser serializes an origin, the host optionally starting with `*.`
 * (any one or more labels). Nothing after the port: an Origin header never carries a path.
 */
const ORIGIN = /^([a-z][a-z0-9+.-]*):\/\/(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/;

/** What one block sets; the server's settings complete an endpoint's. */
type CorsSettings = { -readonly [K in keyof Omit<CorsModel, 'range'>]?: CorsModel[K] };

/** The server's block: every attribute defaulted, `allowed_origins` required. */
export function decodeServerCors(block: Block, scope: DecodeScope): CorsModel | undefined {
  const s = scope.enter(block);
  const own = readSettings(block, s);
  return complete(own, undefined, block, s);
}

/**
 * An endpoint's policy: its own block over the server's, else none for `cors = false`/`null`, else the
 * server's (which may be absent: no cross-origin access).
 */
export function decodeEndpointCors(attr: Attribute | undefined, block: Block | undefined, scope: DecodeScope, server: ServerModel): CorsModel | undefined {
  if (attr !== undefined) {
    if (block !== undefined) {
      scope.error('Conflicting CORS settings', blockHeader(block), {
        detail: 'This endpoint sets cors both as an argument (off) and as a block; keep one.',
      });
    }
    const v = readStatic(attr, scope);
    if (v.ok && v.value !== false && v.value !== null) typeError(attr, scope, 'false or null (no cross-origin access), or a cors { ... } block');
    return undefined;
  }
  if (block === undefined) return server.cors;
  const s = scope.enter(block);
  return complete(readSettings(block, s), server.cors, block, s);
}

function readSettings(block: Block, s: DecodeScope): CorsSettings {
  const { attrs } = decodeBody(block.body, CORS_BODY, s, block);
  const settings: CorsSettings = {};
  const origins = readOrigins(attrs.get('allowed_origins'), s);
  if (origins !== undefined) settings.allowedOrigins = origins;
  const methods = readNames(attrs.get('allowed_methods'), s, 'method');
  if (methods !== undefined) settings.allowedMethods = methods;
  const headers = readNames(attrs.get('allowed_headers'), s, 'header');
  if (headers !== undefined) settings.allowedHeaders = headers;
  const exposed = readNames(attrs.get('exposed_headers'), s, 'exposed');
  if (exposed === '*') {
    // `*` exposes nothing to a credentialed request (Fetch), and svc's own headers are exposed anyway.
    invalidValue(attrs.get('exposed_headers')!, s, 'exposed_headers lists header names; "*" is not accepted (svc exposes its own headers already).');
  } else if (exposed !== undefined) settings.exposedHeaders = exposed;
  const credentials = readBool(attrs.get('allow_credentials'), s);
  if (credentials !== undefined) settings.allowCredentials = credentials;
  const maxAge = readMaxAge(attrs.get('max_age'), s);
  if (maxAge !== undefined) settings.maxAgeSeconds = maxAge;
  return settings;
}

/** The block's settings over the server's (or the defaults); reports what is still missing or unsafe. */
function complete(own: CorsSettings, server: CorsModel | undefined, block: Block, s: DecodeScope): CorsModel | undefined {
  const allowedOrigins = own.allowedOrigins ?? server?.allowedOrigins;
  if (allowedOrigins === undefined) {
    s.error('Missing CORS origins', blockHeader(block), {
      detail:
        'A cors block needs allowed_origins (exact origins such as "https://app.example.com", patterns such as "https://*.example.com", or "*"), and the server block gives none to inherit.',
    });
    return undefined;
  }
  const model: CorsModel = {
    allowedOrigins,
    allowedMethods: own.allowedMethods ?? server?.allowedMethods ?? '*',
    allowedHeaders: own.allowedHeaders ?? server?.allowedHeaders ?? DEFAULT_HEADERS,
    exposedHeaders: own.exposedHeaders ?? server?.exposedHeaders ?? [],
    allowCredentials: own.allowCredentials ?? server?.allowCredentials ?? false,
    maxAgeSeconds: own.maxAgeSeconds ?? server?.maxAgeSeconds ?? DEFAULT_MAX_AGE,
    range: block.range,
  };
  if (model.allowCredentials && model.allowedOrigins.includes('*')) warnWildcardWithCredentials(s, block.range);
  return model;
}

/**
 * Fetch refuses `Access-Control-Allow-Origin: *` on a credentialed request, so svc echoes the page's
 * origin instead: it works, and every site on the web may then read answers sent with the user's
 * cookies. Allowed (the Go project's manifests do it), said at boot.
 */
function warnWildcardWithCredentials(s: DecodeScope, range: Range): void {
  s.warning('Any origin with credentials', range, {
    detail:
      'allowed_origins holds "*" and allow_credentials is true: svc answers every origin with that origin echoed and Access-Control-Allow-Credentials: true, so any web page can read answers sent with its visitors\' cookies. List the origins (or patterns such as "https://*.example.com") instead.',
  });
}

/** A string or a list of strings, each an origin, a pattern or `*`; lower-cased (browsers send origins so). */
function readOrigins(attr: Attribute | undefined, s: DecodeScope): string[] | undefined {
  const list = readOneOrMany(attr, s);
  if (list === undefined) return undefined;
  const origins: string[] = [];
  for (const raw of list) {
    const origin = raw.toLowerCase();
    if (origin === '*' || validOrigin(origin)) origins.push(origin);
    else s.error('Invalid CORS origin', attr!.expr.range, { detail: `"${raw}" ${whyNotAnOrigin(origin)}` });
  }
  return origins;
}

function validOrigin(origin: string): boolean {
  const m = ORIGIN.exec(origin);
  if (m === null) return false;
  const port = m[4];
  return port === undefined || Number(port.slice(1)) <= 65535;
}

function whyNotAnOrigin(origin: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/]+\/.*$/.test(origin)) {
    return `has a path: a browser's Origin is scheme://host[:port] with nothing after it (write "${origin.slice(0, origin.indexOf('/', origin.indexOf('://') + 3))}").`;
  }
  if (origin.includes('*'))
    return 'has a wildcard svc cannot match: only a first label "*." is accepted, as in "https://*.example.com" (or "*" alone for any origin).';
  return 'is not an origin: write scheme://host[:port], such as "https://app.example.com" or "http://127.0.0.1:8080".';
}

/**
 * Methods (upper-cased, each one svc routes) or header names (tokens; allowed ones lower-cased, as
 * browsers list them, exposed ones as written); `"*"` alone means any.
 */
function readNames(attr: Attribute | undefined, s: DecodeScope, kind: 'method' | 'header' | 'exposed'): string[] | '*' | undefined {
  const list = readOneOrMany(attr, s);
  if (list === undefined) return undefined;
  if (list.includes('*')) return '*';
  const names: string[] = [];
  for (const raw of list) {
    if (kind === 'method') {
      const method = raw.toUpperCase();
      if (METHODS.has(method)) names.push(method);
      else s.error('Unknown CORS method', attr!.expr.range, { detail: `"${raw}" is not a method svc routes; use ${[...METHODS].join(', ')} or "*".` });
    } else if (TOKEN.test(raw)) names.push(kind === 'header' ? raw.toLowerCase() : raw);
    else s.error('Invalid CORS header name', attr!.expr.range, { detail: `"${raw}" is not a header name (letters, digits and !#$%&'*+.^_\`|~- only).` });
  }
  return names;
}

function readOneOrMany(attr: Attribute | undefined, s: DecodeScope): string[] | undefined {
  const v = readStatic(attr, s);
  if (!v.ok) return undefined;
  if (typeof v.value === 'string') return [v.value];
  if (Array.isArray(v.value) && v.value.every((x) => typeof x === 'string')) return v.value as string[];
  return void typeError(attr!, s, 'a string or a list of strings');
}

/** Seconds as a whole number (the Go project's type), or a duration string such as "10m". */
function readMaxAge(attr: Attribute | undefined, s: DecodeScope): number | undefined {
  if (attr === undefined) return undefined;
  const v = readStatic(attr, s);
  if (v.ok && typeof v.value === 'string' && !/^-?\d+$/.test(v.value)) {
    const ms = readDuration(attr, s, { min: 0, max: MAX_AGE_BOUNDS.max * 1000 });
    return ms === undefined ? undefined : Math.floor(ms / 1000);
  }
  return readInt(attr, s, MAX_AGE_BOUNDS);
}
