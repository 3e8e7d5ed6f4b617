/**
 * CORS (docs/cors.md): the headers of an actual cross-origin request, on every answer of an
 * endpoint whose policy allows the page's origin.
 *
 * Set on Fastify's reply (`reply.header`), which `send` and a hijacked stream's head both read; on
 * Node's response they cost microseconds per answer (bench/cors README). Set once, as early as the
 * route allows, so nothing later leaves them out: this file's hook runs first on a route with hooks
 * (a 401, 403 or 429 carries them), the handler's start otherwise; errors before the handler get them
 * in errors.ts, 404 and 405 the server's policy (server.ts). A disallowed origin gets no CORS header
 * and a debug line; `Vary: Origin` is on every answer whose headers depend on the origin.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { CorsModel } from '../model/index.js';
import { compileOrigins } from './cors-origins.js';
import type { Logger } from './log.js';

/** svc's own response headers a page may read: the request id, and a limited endpoint's fields. */
const OWN_EXPOSED = ['X-Request-Id'];
const RATE_LIMIT_EXPOSED = ['RateLimit', 'RateLimit-Policy', 'Retry-After'];

/** The longest `Origin` a debug line quotes: the rest of an enormous one is not worth a log's space. */
const LOGGED_ORIGIN_CHARS = 200;

/** A policy compiled for one endpoint (or for the server's 404 and 405 answers). */
export interface CorsPolicy {
  /** `Access-Control-Allow-Origin: *` on every answer: any origin, no credentials. The answer then does not vary. */
  readonly wildcard: boolean;
  readonly credentials: boolean;
  /** `Access-Control-Expose-Headers`. */
  readonly exposed: string;
  /** Upper-cased; `*`: every method of the path. */
  readonly methods: ReadonlySet<string> | '*';
  /** Lower-cased header names, or `*`. */
  readonly headers: ReadonlySet<string> | '*';
  /** `Access-Control-Allow-Headers` when the names are listed. */
  readonly headerList: string;
  /** `Access-Control-Max-Age`. */
  readonly maxAge: string;
  readonly log: Logger;
  /** The log's level is debug or lower: refusals are worth describing (read once, at boot). */
  readonly debug: boolean;
  allows(origin: string): boolean;
}

export interface PolicyOptions {
  /** The endpoint is rate limited: its rate-limit fields are exposed. */
  readonly rateLimited?: boolean;
}

export function compileCors(model: CorsModel, log: Logger, options: PolicyOptions = {}): CorsPolicy {
  const origins = compileOrigins(model.allowedOrigins);
  const exposed = [...OWN_EXPOSED, ...(options.rateLimited ? RATE_LIMIT_EXPOSED : [])];
  for (const name of model.exposedHeaders) if (!exposed.some((e) => e.toLowerCase() === name.toLowerCase())) exposed.push(name);
  return {
    wildcard: origins.any && !model.allowCredentials,
    credentials: model.allowCredentials,
    exposed: exposed.join(', '),
    methods: model.allowedMethods === '*' ? '*' : new Set(model.allowedMethods),
    headers: model.allowedHeaders === '*' ? '*' : new Set(model.allowedHeaders),
    headerList: model.allowedHeaders === '*' ? '*' : model.allowedHeaders.join(', '),
    maxAge: String(model.maxAgeSeconds),
    log,
    debug: log.isLevelEnabled('debug'),
    allows: origins.allows,
  };
}

/** The headers of an actual (not preflight) request's answer, set on the reply. */
export function applyCors(policy: CorsPolicy, request: FastifyRequest, reply: FastifyReply): void {
  if (policy.wildcard) {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', policy.exposed);
    return;
  }
  reply.header('vary', 'Origin');
  const origin = request.headers.origin;
  if (origin === undefined) return;
  if (!policy.allows(origin)) {
    refused(policy, request, origin, 'origin not in allowed_origins');
    return;
  }
  // Only an origin the policy matched is echoed: a boot-time string, or a pattern's checked labels.
  reply.header('access-control-allow-origin', origin);
  if (policy.credentials) reply.header('access-control-allow-credentials', 'true');
  reply.header('access-control-expose-headers', policy.exposed);
}

/** A route's first `onRequest` hook when it has others (guard, rate limit): their refusals carry the headers. */
export function corsHook(policy: CorsPolicy): (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void {
  return function setCorsHeaders(request, reply, done) {
    applyCors(policy, request, reply);
    done();
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's CORS policy: where the error handler finds it (errors.ts). */
    svcCors?: CorsPolicy;
  }
}

/** The route's policy, for an answer produced outside its handler (an error before it). */
export function applyRouteCors(request: FastifyRequest, reply: FastifyReply): void {
  const policy = request.routeOptions.config?.svcCors;
  if (policy !== undefined && !reply.raw.headersSent) applyCors(policy, request, reply);
}

/** Why a request got no CORS headers, at debug level (an operator turns it on to see why a page is blocked). */
export function refused(policy: CorsPolicy, request: FastifyRequest, origin: string, why: string): void {
  if (!policy.debug) return;
  policy.log.debug(
    { reqId: request.id, method: request.method, url: request.url, origin: origin.slice(0, LOGGED_ORIGIN_CHARS), cors: why },
    'cross-origin request refused: no CORS headers sent',
  );
}

/**
 * `Vary` with more field names: a step's `Vary` (or compression's) joins `Origin` rather than replacing
 * it, which would let a cache serve one origin's answer to another.
 */
export function joinVary(existing: unknown, added: string): string {
  if (typeof existing !== 'string' || existing === '') return added;
  const have = existing
    .toLowerCase()
    .split(',')
    .map((v) => v.trim());
  const more = added.split(',').filter((v) => v.trim() !== '' && !have.includes(v.trim().toLowerCase()));
  return more.length === 0 ? existing : `${existing}, ${more.map((v) => v.trim()).join(', ')}`;
}
