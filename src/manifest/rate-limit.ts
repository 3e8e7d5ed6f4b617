/**
 * `rate_limit { max, window, key, connection }` (docs/rate-limits.md): in the server block, the limit
 * of every endpoint that has none (one budget per client, shared) and the defaults of endpoints'
 * blocks; in an endpoint or route block, its own limit and budget (`rate_limit = false` exempts it).
 * `key` is compiled once here and runs before the body is read: it may read `ctx.request.method`,
 * `.path`, `.query`, `.headers` (not validated yet), `ctx.auth` (counted after the guard) and
 * `ctx.client_ip`.
 */
import type { Attribute, Block } from '../hcl/index.js';
import { didYouMean } from '../diag/index.js';
import { blockHeader, decodeBody, type BodySchema } from './body.js';
import { readConnection, type ConnectionTable } from './refs.js';
import type { DecodeScope } from './scope.js';
import type { Expr } from './step-types.js';
import type { RateLimitModel, ServerModel, ServerRateLimit } from './types.js';
import { readExpr, readInt, readDuration, readStatic, typeError } from './values.js';

const SERVER_BODY: BodySchema = { attributes: { max: {}, window: {}, key: {}, connection: {} } };
/** One store per service: the server block names it, so endpoints' blocks take no connection. */
const ENDPOINT_BODY: BodySchema = { attributes: { max: {}, window: {}, key: {} } };

/** The roots of a key expression: `ctx` only (no step has run). */
const KEY_ROOTS: ReadonlySet<string> = new Set(['ctx']);
/** The `ctx` members a key may read. */
export const KEY_CTX_MEMBERS = ['request', 'auth', 'client_ip'] as const;
/** The parts of `ctx.request` known before the body is read. */
const KEY_REQUEST_MEMBERS = ['method', 'path', 'query', 'headers'] as const;

/** A window is counted by Redis' PEXPIRE and compared with Date.now(): any whole number of ms up to a day. */
const WINDOW_BOUNDS = { min: 1, max: 24 * 60 * 60 * 1000 };
/** More would never be reached within a window anyway; bounded so that a typo is caught. */
const MAX_BOUNDS = { min: 1, max: 1_000_000_000 };

export function decodeServerRateLimit(block: Block, scope: DecodeScope, connections: ConnectionTable): ServerRateLimit {
  const s = scope.enter(block);
  const { attrs } = decodeBody(block.body, SERVER_BODY, s, block);
  const max = readInt(attrs.get('max'), s, MAX_BOUNDS);
  const windowMs = readDuration(attrs.get('window'), s, WINDOW_BOUNDS);
  const key = readKey(attrs.get('key'), s);
  const connectionAttr = attrs.get('connection');
  // Absent means in memory, not "the only redis connection" as steps default to.
  const connection = connectionAttr && readConnection(connectionAttr, 'redis', s, connections, block.range);
  // Both or neither: one without the other is a half-written limit, not a set of defaults.
  if (attrs.has('max') !== attrs.has('window')) {
    s.error('Incomplete rate limit', blockHeader(block), {
      detail: `The server's rate_limit sets ${attrs.has('max') ? 'max but not window' : 'window but not max'}: a limit is max requests per window, so give both (or neither, to set only defaults for endpoints' own rate_limit blocks).`,
    });
  }
  return {
    ...(max !== undefined ? { max } : {}),
    ...(windowMs !== undefined ? { windowMs } : {}),
    ...(key !== undefined ? { key } : {}),
    ...(connection ? { connection: connection.name } : {}),
    range: block.range,
  };
}

/**
 * The limit of an endpoint: its own block, else `rate_limit = false`/`null` (none), else the
 * server's when it has one. A documentation endpoint is never limited (it serves files built at boot).
 */
export function decodeEndpointRateLimit(
  attr: Attribute | undefined,
  block: Block | undefined,
  scope: DecodeScope,
  server: ServerModel,
  docs: boolean,
): RateLimitModel | undefined {
  if (attr !== undefined) {
    if (block !== undefined) {
      scope.error('Conflicting rate limits', blockHeader(block), {
        detail: 'This endpoint sets rate_limit both as an argument (off) and as a block; keep one.',
      });
    }
    const v = readStatic(attr, scope);
    if (v.ok && v.value !== false && v.value !== null) {
      typeError(attr, scope, 'false or null (the endpoint is not limited), or a rate_limit { ... } block');
    }
    return undefined;
  }
  if (docs) {
    if (block !== undefined) {
      scope.error('Rate limit on a documentation endpoint', blockHeader(block), {
        detail: 'Documentation endpoints serve files built at boot and are not rate limited; remove this block.',
      });
    }
    return undefined;
  }
  const defaults = server.rateLimit;
  if (block === undefined) {
    if (defaults?.max === undefined || defaults.windowMs === undefined) return undefined;
    return {
      policy: 'server',
      max: defaults.max,
      windowMs: defaults.windowMs,
      ...(defaults.key !== undefined ? { key: defaults.key } : {}),
      range: defaults.range,
    };
  }
  const s = scope.enter(block);
  const { attrs } = decodeBody(block.body, ENDPOINT_BODY, s, block);
  const ownMax = readInt(attrs.get('max'), s, MAX_BOUNDS);
  const ownWindow = readDuration(attrs.get('window'), s, WINDOW_BOUNDS);
  const ownKey = readKey(attrs.get('key'), s);
  const max = attrs.has('max') ? ownMax : defaults?.max;
  const windowMs = attrs.has('window') ? ownWindow : defaults?.windowMs;
  const key = attrs.has('key') ? ownKey : defaults?.key;
  const missing = [
    ...(!attrs.has('max') && defaults?.max === undefined ? ['max'] : []),
    ...(!attrs.has('window') && defaults?.windowMs === undefined ? ['window'] : []),
  ];
  if (missing.length > 0) {
    s.error('Incomplete rate limit', blockHeader(block), {
      detail: `This rate_limit has no ${missing.join(' and no ')}, and the server's rate_limit gives no default for ${missing.length > 1 ? 'them' : 'it'}: a limit is max requests per window.`,
    });
    return undefined;
  }
  if (max === undefined || windowMs === undefined) return undefined;
  return { policy: 'endpoint', max, windowMs, ...(key !== undefined ? { key } : {}), range: block.range };
}

/** The key expression, with what it reads checked: nothing that exists only after the body is read. */
function readKey(attr: Attribute | undefined, scope: DecodeScope): Expr | undefined {
  if (attr === undefined) return undefined;
  const key = readExpr(attr, scope, undefined, KEY_ROOTS);
  if (key === undefined) return undefined;
  let ok = true;
  for (const ref of key.references) {
    if (ref.root !== 'ctx') continue;
    const [member, part] = ref.path;
    if (member === undefined || member === null) continue;
    const refuse = (detail: string, suggestion?: string): void => {
      ok = false;
      scope.error('Invalid rate limit key', ref.range, { detail, ...(suggestion !== undefined ? { suggestion } : {}) });
    };
    if (!(KEY_CTX_MEMBERS as readonly unknown[]).includes(member)) {
      const name = String(member);
      refuse(
        `A rate limit key may read ${KEY_CTX_MEMBERS.map((m) => `ctx.${m}`).join(', ')}; not ctx.${name}${name === 'request_id' || name === 'timestamp_epoch' ? ', which is new on every request' : ''}.`,
        didYouMean(name, KEY_CTX_MEMBERS),
      );
      continue;
    }
    if (member !== 'request' || part === undefined || part === null) continue;
    if (part === 'body') {
      refuse('The limit is counted before the body is read, so a key cannot read ctx.request.body; use a header, a parameter or ctx.auth.');
    } else if (!(KEY_REQUEST_MEMBERS as readonly unknown[]).includes(part)) {
      refuse(`ctx.request has no member "${String(part)}"; a key may read ${KEY_REQUEST_MEMBERS.join(', ')}.`, didYouMean(String(part), KEY_REQUEST_MEMBERS));
    }
  }
  if (key.constant) {
    ok = false;
    scope.error('Invalid rate limit key', attr.expr.range, {
      detail:
        'A constant key would count every client against one budget; read something of the request, such as ctx.request.headers.x-api-key or ctx.auth.principal.',
    });
  }
  return ok ? key : undefined;
}
