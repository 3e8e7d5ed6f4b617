/**
 * Liveness and readiness (docs/operations.md "Health and readiness"). Liveness is 200 whenever the
 * event loop turns and looks at nothing else, so a database outage never gets every replica
 * restarted at once. Readiness is 200 when the connections answer their ping and the process is not
 * shutting down, else a 503 problem saying why (a balancer stops sending before the port closes).
 * Not manifest endpoints: no guard, no rate limit, no access-log line, `no-store`; pings are shared
 * within a second, so a probe flood is not a database load.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problem } from '../problem/index.js';
import { REQUEST_ID_HEADER } from './request-id.js';

export interface Readiness {
  readonly ready: boolean;
  /** Why not, for the 503's `detail`. */
  readonly reason?: string;
  /** Each connection's ping, by its `<kind>.<name>`. */
  readonly connections?: Readonly<Record<string, 'up' | 'down'>>;
}

export interface HealthOptions {
  readonly livePath?: string;
  readonly readyPath?: string;
  /** Asked once per readiness request (the caller shares its pings, see readinessOf). */
  readonly readiness: () => Promise<Readiness>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The GET (and HEAD) routes of the paths the manifest names. */
export function installHealthRoutes(app: FastifyInstance, options: HealthOptions): void {
  if (options.livePath !== undefined) {
    app.route({
      method: 'GET',
      url: options.livePath,
      handler(request: FastifyRequest, reply: FastifyReply) {
        send(request, reply, 200, JSON_TYPE, '{"status":"alive"}');
      },
    });
  }
  const { readyPath, readiness } = options;
  if (readyPath === undefined) return;
  app.route({
    method: 'GET',
    url: readyPath,
    handler(request: FastifyRequest, reply: FastifyReply) {
      readiness().then(
        (state) => answerReadiness(request, reply, state),
        // The check itself failed (it should not): not ready, and nothing of the cause to a prober.
        () => answerReadiness(request, reply, { ready: false, reason: 'the readiness check failed' }),
      );
    },
  });
}

function answerReadiness(request: FastifyRequest, reply: FastifyReply, state: Readiness): void {
  const connections = state.connections === undefined ? {} : { connections: state.connections };
  if (state.ready) {
    send(request, reply, 200, JSON_TYPE, JSON.stringify({ status: 'ready', ...connections }));
    return;
  }
  const body = { ...problem(503, undefined, state.reason ?? 'not ready'), instance: request.url.split('?', 1)[0], ...connections };
  send(request, reply, 503, PROBLEM_CONTENT_TYPE, JSON.stringify(body));
}

function send(request: FastifyRequest, reply: FastifyReply, status: number, contentType: string, body: string): void {
  reply.code(status).header(REQUEST_ID_HEADER, request.id).header('cache-control', 'no-store').type(contentType).send(body);
}

/** How long one round of pings answers every readiness request. */
const PING_SHARE_MS = 1000;

export interface ReadinessSources {
  /** Whether the process has begun to shut down. */
  readonly draining: () => boolean;
  /** One ping per connection; never rejects. */
  readonly ping: () => Promise<readonly { readonly key: string; readonly ok: boolean }[]>;
}

/**
 * The readiness of a process: not ready from the moment it drains (without waiting for a ping),
 * otherwise ready when every connection answered the last round of pings. A round is reused for
 * PING_SHARE_MS, and one under way is joined rather than doubled.
 */
export function readinessOf(sources: ReadinessSources, now: () => number = Date.now): () => Promise<Readiness> {
  let round: { readonly at: number; readonly result: Promise<Readiness> } | undefined;
  return () => {
    if (sources.draining()) return Promise.resolve({ ready: false, reason: 'shutting down' });
    const time = now();
    if (round === undefined || time - round.at >= PING_SHARE_MS) round = { at: time, result: pingAll(sources) };
    return round.result;
  };
}

async function pingAll(sources: ReadinessSources): Promise<Readiness> {
  const pings = await sources.ping();
  const connections: Record<string, 'up' | 'down'> = {};
  for (const p of pings) connections[p.key] = p.ok ? 'up' : 'down';
  const down = pings.filter((p) => !p.ok).map((p) => p.key);
  if (down.length === 0) return { ready: true, connections };
  return { ready: false, reason: `${down.length === 1 ? 'a connection does' : 'connections do'} not answer: ${down.join(', ')}`, connections };
}
