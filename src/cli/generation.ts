/**
 * One loaded manifest being served: its model and compiled endpoints, the Fastify app built from
 * them (never listening itself: the front server of src/http/front.ts hands it requests) and its
 * connections. `svc serve` starts one at boot and one more at every reload.
 */
import type { ConnectorSet } from '../connectors/index.js';
import { buildServer, docsSites, readinessOf, type HttpApp, type Logger } from '../http/index.js';
import { activeTracer } from '../tracing/index.js';
import type { SqlColumns } from '../openapi/index.js';
import type { Booted } from './boot.js';
import { bootQueryCheck, checksQueries } from './boot-query-check.js';
import { telemetryOf } from './log-settings.js';

export interface Generation {
  readonly booted: Booted;
  readonly app: HttpApp;
}

export interface StartOptions {
  readonly logger: Logger;
  /** The generation this one replaces: its open connections with unchanged settings are kept. */
  readonly previous?: Generation | undefined;
  /** Whether the process has begun to shut down (the readiness probe then answers 503); default never. */
  readonly draining?: (() => boolean) | undefined;
}

/** The bound of each connection's ping when readiness is asked: a probe's own time-out is about a second. */
const READINESS_PING_MS = 1000;

/**
 * Builds the app and opens every connection (retried while unreachable, migrations applied), so no
 * request can reach a connection that is not open. Rejects, with nothing left open, when one cannot be.
 */
export async function startGeneration(booted: Booted, options: StartOptions): Promise<Generation> {
  if (checksQueries(booted)) {
    // check_queries: the check needs the connections open (their migrations applied), and the
    // served document its columns; so here the connections open first (./boot-query-check.ts).
    await booted.connectors.openAll({ logger: options.logger, reuse: options.previous?.booted.connectors });
    try {
      const sqlColumns = await bootQueryCheck(booted);
      return { booted, app: await buildApp(booted, options, sqlColumns) };
    } catch (error) {
      // What was taken over from the previous generation goes back to it (src/connectors/set.ts).
      await booted.connectors.closeAll();
      throw error;
    }
  }
  const app = await buildApp(booted, options, undefined);
  try {
    await booted.connectors.openAll({ logger: options.logger, reuse: options.previous?.booted.connectors });
  } catch (error) {
    await app.close();
    throw error;
  }
  return { booted, app };
}

function buildApp(booted: Booted, options: StartOptions, sqlColumns: SqlColumns | undefined): Promise<HttpApp> {
  const { server } = booted.model;
  return buildServer({
    endpoints: booted.service.endpoints,
    // The OpenAPI document is compiled here, once, when a documentation endpoint serves it.
    docs: docsSites(booted.service.docs, booted.model, sqlColumns),
    bodyLimit: server.maxBodySize,
    requestTimeoutMs: server.requestTimeoutMs,
    ...(server.cors ? { cors: server.cors } : {}),
    ...(server.health
      ? {
          health: {
            ...server.health,
            readiness: readinessOf({ draining: options.draining ?? never, ping: () => booted.connectors.health({ timeoutMs: READINESS_PING_MS }) }),
          },
        }
      : {}),
    // The logger at the server block's level, the access log, and the metrics page when on.
    ...telemetryOf(options.logger).serverOptions(server, booted.connectors),
    // The process's SDK is up (src/cli/tracing.ts): server spans, and trace ids in the log lines.
    ...(activeTracer() !== undefined ? { tracing: true } : {}),
  });
}

function never(): boolean {
  return false;
}

/**
 * Closes the connections of a generation whose requests are done (its app is closed by the front),
 * once its after_response work is: given `shutdown_timeout`, then cancelled (src/steps/after-response.ts).
 */
export async function closeConnections(generation: Generation): Promise<void> {
  const { booted } = generation;
  await booted.service.afterResponse.drain(booted.model.server.shutdownTimeoutMs);
  await (booted.connectors as ConnectorSet).closeAll();
}
