/**
 * Rate limits (docs/rate-limits.md), counted by @fastify/rate-limit as a route's `onRequest` hook:
 * before the body is read, so a refused request costs no upload and no step.
 *
 * Its RedisStore (a Lua script) over `server.rate_limit.connection` makes every process count against
 * one budget; the in-memory LRU store otherwise, and for `memory:` (which runs no Lua). Counters are
 * keyed `<policy>:<client>`. The limit runs before the guard, so wrong credentials count too, unless
 * the key reads `ctx.auth`. A store that is down fails open: an outage of the limiter must not
 * become one of the API (logged once when counting stops, once when it resumes).
 */
import { createHash } from 'node:crypto';
import type * as RateLimitPlugin from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { scriptClient } from '../connectors/index.js';
import type { RateLimitModel } from '../model/index.js';
import type { CompiledEndpoint } from '../steps/index.js';
import type { Logger } from './log.js';
import { logSent } from './note.js';
import { sendStatusProblem } from './problems.js';

/** Clients the in-memory store remembers; past it the least recently seen are forgotten (their count restarts). */
const MAX_CLIENTS = 100_000;
/** Keys longer than this are hashed, so that a client cannot make the store hold large keys. */
const MAX_KEY_LENGTH = 128;
const NAMESPACE = 'svc:rate-limit:';

/** What the hook hands the store's callbacks for the request being counted. */
interface Counting {
  readonly limit: RateLimitModel;
  readonly key: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    svcRateLimit: Counting | null;
  }
}

/** A limit's hook, and whether it runs after the guard (its key reads `ctx.auth`). */
export interface RateLimitHook {
  readonly hook: onRequestHookHandler;
  readonly afterGuard: boolean;
}

/**
 * Registers @fastify/rate-limit (no route is limited by it directly) and builds each limited
 * endpoint's hook. Before any route is added, and before the connections open: the Redis store is
 * given svc's connection through scriptClient, which sends nothing until a request is counted.
 */
export async function installRateLimits(
  app: FastifyInstance,
  endpoints: readonly CompiledEndpoint[],
  logger: Logger,
): Promise<ReadonlyMap<CompiledEndpoint, RateLimitHook>> {
  const hooks = new Map<CompiledEndpoint, RateLimitHook>();
  const limited = endpoints.filter((e) => e.rateLimit !== undefined);
  if (limited.length === 0) return hooks;
  // Every endpoint has the same store (server.rate_limit.connection).
  const store = limited[0]!.rateLimit!.store;
  // Loaded only by a service that limits something (about 7 MB of resident memory otherwise held).
  const { default: rateLimit, normalizeIP }: typeof RateLimitPlugin = await import('@fastify/rate-limit');
  app.decorateRequest('svcRateLimit', null);
  await app.register(rateLimit, {
    global: false,
    max: (request: FastifyRequest) => request.svcRateLimit!.limit.max,
    timeWindow: (request: FastifyRequest) => request.svcRateLimit!.limit.windowMs,
    keyGenerator: (request: FastifyRequest) => request.svcRateLimit!.key,
    // Errors reach the hook, which lets the request through and logs the outage (see storeHealth).
    skipOnError: false,
    cache: MAX_CLIENTS,
    ...(store !== undefined && !store.embedded ? { redis: scriptClient(store), nameSpace: NAMESPACE } : {}),
  });
  const count = app.createRateLimit();
  const health = storeHealth(logger, store?.name);
  for (const endpoint of limited) {
    const limit = endpoint.rateLimit!.limit;
    const policy = limit.policy === 'server' ? 'server' : `${endpoint.method.toUpperCase()} ${endpoint.path}`;
    hooks.set(endpoint, { hook: rateLimitHook(limit, policy, count, health, normalizeIP), afterGuard: readsAuth(limit) });
  }
  return hooks;
}

/** A route's onRequest hooks (none, its guard, its limit or both, in the order the limit's key needs). */
export function routeHooks(guard: onRequestHookHandler | undefined, limit: RateLimitHook | undefined): { onRequest?: onRequestHookHandler[] } {
  if (limit === undefined) return guard === undefined ? {} : { onRequest: [guard] };
  if (guard === undefined) return { onRequest: [limit.hook] };
  return { onRequest: limit.afterGuard ? [guard, limit.hook] : [limit.hook, guard] };
}

type Count = ReturnType<FastifyInstance['createRateLimit']>;

type NormalizeIp = (typeof RateLimitPlugin)['normalizeIP'];

function rateLimitHook(limit: RateLimitModel, policy: string, count: Count, health: StoreHealth, normalizeIP: NormalizeIp): onRequestHookHandler {
  const keyExpr = limit.key;
  const windowSeconds = Math.max(1, Math.ceil(limit.windowMs / 1000));
  const policyHeader = `"${policy}";q=${limit.max};w=${windowSeconds}`;
  const prefix = `${policy}:`;
  return function countRequest(request, reply, done) {
    let client: string;
    try {
      client = clientKey(request, keyExpr, normalizeIP);
    } catch (error) {
      // A key that fails to evaluate (its size budget) is a 500 like any failing expression.
      done(error as Error);
      return;
    }
    request.svcRateLimit = { limit, key: prefix + client };
    count(request).then(
      (state) => {
        health.answered();
        if (request.raw.destroyed) {
          logSent(request, reply, 499);
          return;
        }
        if (state.isAllowed) {
          done();
          return;
        }
        const seconds = Math.max(1, Math.ceil(Number(state.ttl) / 1000));
        reply.header('ratelimit-policy', policyHeader);
        reply.header('ratelimit', `"${policy}";r=${state.remaining};t=${seconds}`);
        if (!state.isExceeded) {
          done();
          return;
        }
        reply.header('retry-after', String(seconds));
        // Answered here: no body is read, no step runs; `done` is not called.
        sendStatusProblem(request, reply, 429, `at most ${limit.max} requests per ${describeWindow(limit.windowMs)}; retry in ${seconds} s`);
      },
      (error: unknown) => {
        health.failed(error);
        if (request.raw.destroyed) logSent(request, reply, 499);
        else done();
      },
    );
  };
}

/** Who is counted: the key's value as text, else the client address. */
function clientKey(request: FastifyRequest, keyExpr: RateLimitModel['key'], normalizeIP: NormalizeIp): string {
  if (keyExpr !== undefined) {
    const value = keyExpr.evaluate({ ctx: keyContext(request) });
    if (value !== null && value !== undefined && value !== '') {
      const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
      return text.length > MAX_KEY_LENGTH ? `h:${createHash('sha256').update(text).digest('base64url')}` : `k:${text}`;
    }
  }
  return `ip:${normalizeIP(request.ip)}`;
}

/** What a key may read (src/manifest/rate-limit.ts): the request as it arrived, before validation. */
function keyContext(request: FastifyRequest): Record<string, unknown> {
  return {
    request: { method: request.method, path: request.params, query: request.query, headers: request.headers },
    auth: request.svcAuth,
    client_ip: request.ip,
  };
}

function readsAuth(limit: RateLimitModel): boolean {
  return limit.key?.references.some((r) => r.root === 'ctx' && (r.path.length === 0 || r.path[0] === 'auth')) ?? false;
}

function describeWindow(ms: number): string {
  if (ms % 3_600_000 === 0) return ms === 3_600_000 ? 'hour' : `${ms / 3_600_000} hours`;
  if (ms % 60_000 === 0) return ms === 60_000 ? 'minute' : `${ms / 60_000} minutes`;
  if (ms % 1000 === 0) return ms === 1000 ? 'second' : `${ms / 1000} seconds`;
  return `${ms} ms`;
}

interface StoreHealth {
  answered(): void;
  failed(error: unknown): void;
}

/** Logs when counting stops (the store fails) and when it resumes; not once per request. */
function storeHealth(logger: Logger, connection: string | undefined): StoreHealth {
  let failing = false;
  const fields = connection === undefined ? {} : { connection: `redis.${connection}` };
  return {
    answered() {
      if (!failing) return;
      failing = false;
      logger.info(fields, 'rate limit store answers again: requests are counted');
    },
    failed(error) {
      if (failing) return;
      failing = true;
      logger.warn({ ...fields, err: error instanceof Error ? error.message : String(error) }, 'rate limit store unavailable: requests are served uncounted');
    },
  };
}
