/**
 * Prometheus metrics (`server { metrics = "/metrics" }`), through prom-client: the only importer of it.
 * Off by default, and then nothing here runs (prom-client not even loaded: about 40 ms). When on,
 * per-request figures are recorded where the log line is written (note.ts `logSent`), and the
 * process' state only at scrape time (prom-client `collect`). Labels are bounded by the manifest,
 * never by clients: the declared route (`/users/{id}`, or `unmatched`), the method, the status.
 */
import { createRequire } from 'node:module';
import type { FastifyRequest } from 'fastify';
import type * as PromClient from 'prom-client';
import type { ConnectorSet } from '../connectors/index.js';
import type { StarlarkBudget, StepObserver } from '../steps/index.js';
import type { RequestLogger } from './log.js';
import { register, type Series, SeriesHistogram } from './metrics-series.js';

type Prom = typeof PromClient;

const require = createRequire(import.meta.url);

/** prom-client, loaded by the first service that turns metrics on (synchronously: it is CommonJS). */
export function promClient(): Prom {
  return require('prom-client') as Prom;
}

/** The route label of a request no route matched (a 404, a malformed request). */
export const UNMATCHED = 'unmatched';

/** Seconds; from a synchronous expression-only request (~0.1 ms) to a slow dependency. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface ServiceMetrics {
  readonly registry: PromClient.Registry;
  /** Given to compileService (`observeSteps`): step durations and Starlark budget exhaustion. */
  readonly steps: StepObserver;
  /** One answered request. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** What the open-streams gauge reads at scrape time (the server's registry of pumps). */
  watchStreams(open: () => number): void;
  /** The connections whose pools and state are read at scrape time (a reload hands over its own). */
  watchConnections(connectors: ConnectorSet): void;
}

/** A registry with every metric of the service, empty of samples. */
export function createMetrics(): ServiceMetrics {
  const prom = promClient();
  const registry = new prom.Registry();
  const registers = [registry];

  // Recorded per request and per step: series of their own (metrics-series.ts), read at scrape time.
  const requests = new SeriesHistogram(
    'svc_http_request_duration_seconds',
    'Time from a request arriving to its response finishing (a stream: to its end), in seconds.',
    ['method', 'route', 'status'],
    DURATION_BUCKETS,
  );
  register(registry, requests.counter('svc_http_requests_total', 'Requests answered, by method, route (as declared in the manifest) and status.'));
  register(registry, requests);
  const steps = new SeriesHistogram(
    'svc_step_duration_seconds',
    "A step's own run time by step kind, and whether it failed (outcome ok or error), in seconds.",
    ['kind', 'outcome'],
    DURATION_BUCKETS,
  );
  register(registry, steps);
  /** A request's series by `method status route`: one string and one lookup per request. */
  const requestSeries = new Map<string, Series>();
  const budgets = new prom.Counter({
    name: 'svc_starlark_budget_exhausted_total',
    help: 'Starlark scripts stopped by a budget: steps (max_steps), timeout, size (memory).',
    labelNames: ['budget'] as const,
    registers,
  });

  let openStreams: (() => number) | undefined;
  new prom.Gauge({
    name: 'svc_open_streams',
    help: 'Streamed responses (NDJSON, SSE, CSV...) being written now.',
    registers,
    collect() {
      this.set(openStreams?.() ?? 0);
    },
  });

  let connections: ConnectorSet | undefined;
  connectionGauges(prom, registers, () => connections);

  return {
    registry,
    steps: {
      forKind(kind) {
        const ok = steps.series(kind, 'ok');
        const error = steps.series(kind, 'error');
        return { ended: (seconds, failed) => (failed ? error : ok).observe(seconds) };
      },
      starlarkBudgetExhausted(budget: StarlarkBudget) {
        budgets.inc({ budget });
      },
    },
    observeRequest(method, route, status, seconds) {
      const key = `${method} ${status} ${route}`;
      let series = requestSeries.get(key);
      if (series === undefined) requestSeries.set(key, (series = requests.series(method, route, String(status))));
      series.observe(seconds);
    },
    watchStreams(open) {
      openStreams = open;
    },
    watchConnections(connectors) {
      connections = connectors;
    },
  };
}

/**
 * Per connection (`postgres.main`), read at scrape time: whether it is up, a postgres pool's clients
 * (in use, idle, its size, callers waiting), a redis connection's queued commands. With workers, the
 * primary sums them (each worker has its own pools); `up` is the minimum: 1 only when all are up.
 */
function connectionGauges(prom: Prom, registers: PromClient.Registry[], watched: () => ConnectorSet | undefined): void {
  const gauge = (name: string, help: string, labelNames: readonly string[]) => new prom.Gauge({ name, help, labelNames, registers });
  // Registered first: a scrape reads the metrics in order, so this collect fills the gauges after it.
  const up = new prom.Gauge({
    name: 'svc_connection_up',
    help: '1 when the connection is open and answering commands, else 0.',
    labelNames: ['connection', 'kind'],
    registers,
    aggregator: 'min',
    collect: () => {
      for (const handle of watched()?.handles ?? []) read(handle);
    },
  });
  const clients = gauge('svc_pool_clients', "A SQL connection pool's clients, by state (in_use, idle).", ['connection', 'state']);
  const max = gauge('svc_pool_max_clients', "A SQL connection pool's size (max clients).", ['connection']);
  const waiting = gauge('svc_pool_waiting', 'Callers waiting for a client of a SQL connection pool.', ['connection']);
  const queued = gauge('svc_redis_queued_commands', 'Redis commands waiting for the connection (opening or reconnecting).', ['connection']);

  function read(handle: ConnectorSet['handles'][number]): void {
    const connection = handle.key;
    if (handle.state !== 'open') {
      up.set({ connection, kind: handle.kind }, 0);
      return;
    }
    if (handle.kind === 'redis') {
      const stats = handle.stats();
      up.set({ connection, kind: handle.kind }, stats.up ? 1 : 0);
      queued.set({ connection }, stats.queued);
    } else {
      const stats = handle.stats();
      up.set({ connection, kind: handle.kind }, 1);
      clients.set({ connection, state: 'in_use' }, stats.total - stats.idle);
      clients.set({ connection, state: 'idle' }, stats.idle);
      max.set({ connection }, stats.max);
      waiting.set({ connection }, stats.waiting);
    }
  }
}

/**
 * The request log wrapped so that every logged request is also counted and timed, by the route it
 * matched. `routes` maps the router's paths (`/users/:id`) to the manifest's (`/users/{id}`).
 */
export function countingRequests(log: RequestLogger, metrics: ServiceMetrics, routes: ReadonlyMap<string, string>): RequestLogger {
  return (reqId, method, url, status, ms, note, request) => {
    try {
      metrics.observeRequest(method, routeOf(request, routes), status, ms / 1000);
    } catch {
      // A metric never costs a request its log line.
    }
    log(reqId, method, url, status, ms, note, request);
  };
}

function routeOf(request: FastifyRequest | undefined, routes: ReadonlyMap<string, string>): string {
  if (request === undefined) return UNMATCHED;
  let url: string | undefined;
  try {
    // A getter building an object: read only here, with metrics on. Undefined for the 404 handler.
    url = request.routeOptions.url;
  } catch {
    // Requests Fastify builds for routing errors have no route context.
  }
  if (url === undefined) return UNMATCHED;
  return routes.get(url) ?? url;
}
