/**
 * CORS preflights (docs/cors.md): an `OPTIONS` with `Origin` and `Access-Control-Request-Method` on a
 * declared path, answered before any guard, validation or rate limit (the browser sends no
 * credentials with it), on the path's 405 route or a declared OPTIONS endpoint's first hook. The
 * requested method's endpoint policy decides: 204 with what it allows, else a 403 problem without
 * CORS headers and a debug line saying why.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { applyCors, type CorsPolicy, refused } from './cors.js';
import { logSent } from './note.js';
import { sendStatusProblem } from './problems.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/** What the answer depends on: every request header the preflight reads. */
const PREFLIGHT_VARY = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';

/** A list of header names as browsers send it (lower case, comma-separated), bounded: what may be echoed. */
const HEADER_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;
const MAX_REQUESTED_HEADERS_CHARS = 4096;

interface MethodPolicy {
  readonly policy: CorsPolicy;
  /** `Access-Control-Allow-Methods`: the path's methods this policy allows. */
  readonly allowMethods: string;
}

/** The preflight answers of one path, by requested method; built at boot. */
export type PathPreflight = ReadonlyMap<string, MethodPolicy>;

/**
 * `endpoints`: the path's endpoints with their policies; `pathMethods`: every method the path answers
 * (HEAD included where GET is declared, methods.ts). HEAD without an endpoint of its own is GET's.
 */
export function pathPreflight(
  endpoints: readonly { method: string; cors?: CorsPolicy | undefined }[],
  pathMethods: readonly string[],
): PathPreflight | undefined {
  const byMethod = new Map<string, MethodPolicy>();
  for (const { method, cors } of endpoints) {
    if (cors === undefined) continue;
    const allowMethods = pathMethods.filter((m) => cors.methods === '*' || cors.methods.has(m)).join(', ');
    byMethod.set(method.toUpperCase(), { policy: cors, allowMethods });
  }
  const get = byMethod.get('GET');
  if (get !== undefined && !endpoints.some((e) => e.method.toUpperCase() === 'HEAD')) byMethod.set('HEAD', get);
  return byMethod.size === 0 ? undefined : byMethod;
}

export function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;
}

export function answerPreflight(preflight: PathPreflight | undefined, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('vary', PREFLIGHT_VARY);
  reply.header(REQUEST_ID_HEADER, request.id);
  const origin = request.headers.origin!;
  const method = String(request.headers['access-control-request-method']);
  const entry = preflight?.get(method);
  const why =
    entry === undefined
      ? `no endpoint with CORS answers ${method.slice(0, 16)} on this path`
      : !entry.policy.allows(origin)
        ? 'origin not in allowed_origins'
        : entry.policy.methods !== '*' && !entry.policy.methods.has(method)
          ? `${method} not in allowed_methods`
          : undefined;
  if (why !== undefined) {
    if (entry !== undefined) refused(entry.policy, request, origin, why);
    sendStatusProblem(request, reply, 403, `cross-origin request refused: ${why}`);
    return;
  }
  const { policy, allowMethods } = entry!;
  reply.header('access-control-allow-origin', policy.wildcard ? '*' : origin);
  if (policy.credentials) reply.header('access-control-allow-credentials', 'true');
  reply.header('access-control-allow-methods', allowMethods);
  const allowHeaders = allowedHeaders(policy, request.headers['access-control-request-headers']);
  if (allowHeaders !== '') reply.header('access-control-allow-headers', allowHeaders);
  reply.header('access-control-max-age', policy.maxAge);
  reply.code(204).send();
  logSent(request, reply);
}

/**
 * The listed names; for `*`, the literal `*` without credentials, and with them the requested names
 * echoed (Fetch ignores a `*` then), when they are a well-formed list of reasonable length.
 */
function allowedHeaders(policy: CorsPolicy, requested: string | string[] | undefined): string {
  if (policy.headers !== '*') {
    if (typeof requested === 'string' && requested.length <= MAX_REQUESTED_HEADERS_CHARS && policy.debug) {
      const missing = requested
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h !== '' && !(policy.headers as ReadonlySet<string>).has(h));
      if (missing.length > 0)
        policy.log.debug({ cors: `requested headers not in allowed_headers: ${missing.join(', ')}` }, 'cross-origin preflight: the browser will refuse');
    }
    return policy.headerList;
  }
  if (!policy.credentials) return '*';
  if (typeof requested !== 'string' || requested.length > MAX_REQUESTED_HEADERS_CHARS || !HEADER_LIST.test(requested)) return '';
  return requested;
}

/** The 405 route's handler: a preflight answered, anything else as `otherwise` does, with the path's policy. */
export function preflightOr(
  preflight: PathPreflight | undefined,
  fallback: CorsPolicy | undefined,
  otherwise: (request: FastifyRequest, reply: FastifyReply) => void,
): (request: FastifyRequest, reply: FastifyReply) => void {
  return function preflightOrNot(request, reply) {
    if (isPreflight(request)) answerPreflight(preflight, request, reply);
    else {
      if (fallback !== undefined) applyCors(fallback, request, reply);
      otherwise(request, reply);
    }
  };
}

/** The first hook of a declared OPTIONS endpoint: preflights are answered before its guard and handler. */
export function preflightHook(preflight: PathPreflight | undefined): (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void {
  return function answerPreflights(request, reply, done) {
    if (isPreflight(request)) answerPreflight(preflight, request, reply);
    else done();
  };
}
