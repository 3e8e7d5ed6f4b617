/**
 * One serving process: `svc serve` with one worker, and each worker of `--workers N`.
 *
 * Boot (load, check, compile), open every connection, listen through the front server
 * (src/http/front.ts), then serve until told to stop; the manifest is reloaded on SIGHUP and, with
 * `--watch`, when its files change (reload.ts). Stopping drains in-flight requests within
 * `shutdown_timeout`, then closes the connections; the exit code is 0.
 *
 * In a worker the primary (workers.ts) is in charge of signals: it sends SIGTERM to stop (a second
 * SIGTERM closes every connection at once) and reloads by replacing workers, so a worker ignores
 * SIGINT and SIGHUP (a terminal's Ctrl-C or hang-up reaches every process of the group) and stops
 * when its primary goes away.
 */
import cluster from 'node:cluster';
import type { StepError } from '../../graph/index.js';
import { createFront, flushLogger, listenFront, processSignals, shutdownFront, transportOf, type Logger } from '../http/index.js';
import type { CompileServiceOptions } from '../steps/index.js';
import type { Booted, DiagnosticsFormat } from './boot.js';
import { collectGarbageWhenIdle } from './idle-garbage.js';
import { countEndpoints, describeEndpoints } from './endpoint-count.js';
import { closeConnections, startGeneration, type Generation } from './generation.js';
import { telemetryOf } from './log-settings.js';
import { EXIT_FAILURE, type CliIO } from './io.js';
import { createReloader } from './reload.js';
import { loadForServe } from './serve-load.js';
import { watchManifest } from './watch.js';
import { startProcessTracing, stopProcessTracing, traceStepsOf } from './tracing.js';
import type { Env, Tracing } from '../tracing/index.js';

export interface ServeProcessOptions {
  readonly dir: string;
  readonly io: CliIO;
  readonly format: DiagnosticsFormat;
  readonly logger: Logger;
  /** The address: flags and environment over the server block (serve.ts `bindAddress`). */
  readonly bind: (server: { readonly host: string; readonly port: number }) => { host: string; port: number };
  readonly watch: boolean;
  /** Set in a worker of `--workers N`: signals are the primary's (see above). */
  readonly worker?: boolean | undefined;
  /** The manifest as `serve` loaded it to count the workers; loaded here when absent. */
  readonly booted?: Booted | undefined;
}

/** What `compileService` needs from the process: a place for failures nobody else can report. */
export function compileOptions(logger: Logger, env: Env = process.env): CompileServiceOptions {
  // A step's release or a transaction's rollback that fails after its request was answered (or
  // abandoned) has nobody to fail: the engine hands it here, and it must never pass unseen.
  return {
    onTeardownError: (error: StepError): void => logger.error({ err: error, step: error.step, kind: error.kind, category: error.category }, 'teardown failed'),
    // A step with on_error = "continue" that failed: the pipeline went on, the failure is still seen.
    onContinuedError: (error: StepError): void =>
      logger.warn({ err: error, step: error.step, kind: error.kind, category: error.category }, 'step failed, pipeline continued (on_error)'),
    // after_response: its failures, what the bounds dropped, what a shutdown cut (src/steps/after-response.ts).
    afterResponse: {
      failed: (error, ctx) =>
        logger.warn({ reqId: ctx.request_id, err: error, step: error.step, kind: error.kind, category: error.category }, 'after_response step failed'),
      dropped: (ctx) => logger.error({ reqId: ctx.request_id }, 'after_response dropped: too much after-response work is waiting'),
      stopped: (counts) => logger.warn(counts, 'after_response work cut short by the shutdown'),
    },
    // Step durations for the metrics, when the manifest turns them on (log-settings.ts).
    observeSteps: telemetryOf(logger).observeSteps,
    // Step spans, when the manifest or the environment turns tracing on (tracing.ts).
    traceSteps: traceStepsOf(env),
  };
}

export async function serveProcess(options: ServeProcessOptions): Promise<number> {
  const { io, logger } = options;
  const compile = compileOptions(logger, io.env);
  // A worker does not check the worker count again: its primary did, before forking it.
  let booted = options.booted;
  if (booted === undefined) {
    booted = await loadForServe(options.dir, io, options.format, compile, undefined);
    if (!booted) return EXIT_FAILURE;
    // The server block's log level, as serve.ts settles it for a process that loaded it there.
    telemetryOf(logger).settle(booted.model.server);
  }
  const { server } = booted.model;
  const bind = options.bind(server);

  // The SDK before the first server: its requests are traced from the first (tracing.ts).
  let tracing: Tracing | undefined;
  try {
    tracing = await startProcessTracing(server, io.env, logger);
  } catch (error) {
    io.stderr.write(`svc serve: tracing could not start: ${(error as Error).message}\n`);
    flushLogger(logger);
    return EXIT_FAILURE;
  }

  // Every connection is opened and answering before the first request can arrive; one that cannot
  // be reached stops the boot (after a bounded retry) instead of failing requests later.
  let first: Generation;
  // From the stop signal on, every generation's readiness probe answers 503 (src/http/health.ts).
  let draining = false;
  const isDraining = (): boolean => draining;
  try {
    first = await startGeneration(booted, { logger, draining: isDraining });
  } catch (error) {
    io.stderr.write(`svc serve: ${(error as Error).message}\n`);
    flushLogger(logger);
    return EXIT_FAILURE;
  }
  const front = createFront({ ...transportOf(server), requestTimeoutMs: server.requestTimeoutMs, app: first.app });
  // Log lines are batched: a crash must neither lose the last ones nor die without saying why.
  const crash = (error: unknown): void => {
    logger.fatal({ err: error }, 'crashed');
    flushLogger(logger);
    process.exit(EXIT_FAILURE);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);

  // The signals are ours before the port is: a SIGHUP sent on seeing the listening line, or the
  // primary's SIGTERM to a worker it has just seen listen, must not meet the default action (the end
  // of the process).
  const reloader = createReloader({ dir: options.dir, io, format: options.format, logger, front, first, compile, draining: isDraining });
  // A second signal: every connection closed now, its requests logged as cut by the shutdown.
  const forceClose = (): void => front.cutEveryConnection();
  const signals = !options.worker ? processSignals({ onRepeat: forceClose, onReload: () => reloader.reload('SIGHUP') }) : workerSignals(forceClose);
  let address: { url: string };
  try {
    address = await listenFront(front, bind);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const where = `${bind.host}:${bind.port}`;
    io.stderr.write(
      `svc serve: cannot listen on ${where}: ${code === 'EADDRINUSE' ? 'the address is already in use' : code === 'EACCES' ? 'permission denied' : (error as Error).message}\n`,
    );
    signals.dispose();
    await reloader.settle();
    await reloader.current().app.close();
    await closeConnections(reloader.current());
    process.off('uncaughtException', crash);
    process.off('unhandledRejection', crash);
    return EXIT_FAILURE;
  }
  const watcher = options.watch ? watchManifest(options.dir, booted.model, () => reloader.reload('watch')) : undefined;
  reloader.onReloaded = (ok, generation) => {
    if (ok) watcher?.follow(generation.booted.model);
  };
  // counted as `svc check` counts them, documentation endpoints included (endpoint-count.ts)
  const endpoints = countEndpoints(booted.model).total;
  // A worker's lines carry its pid already (src/http log.ts): said once, not twice.
  logger.info({ url: address.url, endpoints, ...(cluster.isWorker ? {} : { pid: process.pid }) }, 'listening');
  if (!options.worker) io.stderr.write(`svc serve: listening on ${address.url} (${describeEndpoints(booted.model).join(', ')})\n`);
  // What the boot grew is given back if nobody calls the server at once (idle-garbage.ts).
  collectGarbageWhenIdle();

  const signal = await signals.stop;
  draining = true;
  logger.info({ signal }, 'shutting down');
  await drainDelay(reloader.current().booted.model.server.health?.drainDelayMs, logger);
  watcher?.close();
  let code = 0;
  try {
    // A reload under way finishes first: its new generation is then the one drained.
    await reloader.settle();
    const { shutdownTimeoutMs } = reloader.current().booted.model.server;
    await shutdownFront(front, { shutdownTimeoutMs, logger });
    await reloader.settle();
    logger.info('stopped');
  } catch (error) {
    logger.error({ err: error }, 'shutdown failed');
    code = EXIT_FAILURE;
  }
  // After the HTTP server has drained: no request can still hold a pooled client.
  await closeConnections(reloader.current());
  // The last spans exported (bounded); a collector that is down costs a warning (tracing.ts).
  await stopProcessTracing(tracing, logger);
  signals.dispose();
  process.off('uncaughtException', crash);
  process.off('unhandledRejection', crash);
  flushLogger(logger);
  return code;
}

/**
 * `health { drain_delay }`: the port stays open and requests are served while the readiness probe
 * already answers 503, so that a balancer polling it takes the process out before connections are
 * refused. Not cut short by a second signal, which closes the connections (the delay is opt-in).
 */
async function drainDelay(ms: number | undefined, logger: Logger): Promise<void> {
  if (ms === undefined) return;
  logger.info({ drainDelayMs: ms }, 'not ready: serving on for the drain delay before closing the port');
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** A worker's signals: SIGTERM from the primary stops it; SIGINT and SIGHUP are the primary's. */
function workerSignals(forceClose: () => void): { stop: Promise<NodeJS.Signals>; dispose(): void } {
  let stopping = false;
  let resolveStop!: (signal: NodeJS.Signals) => void;
  const stop = new Promise<NodeJS.Signals>((resolve) => (resolveStop = resolve));
  const onTerm = (): void => {
    if (stopping) forceClose();
    stopping = true;
    resolveStop('SIGTERM');
  };
  const ignore = (): void => {};
  // The primary is gone (killed): nobody will send the SIGTERM, so stop as if it had.
  const orphaned = (): void => onTerm();
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', ignore);
  process.on('SIGHUP', ignore);
  process.on('disconnect', orphaned);
  return {
    stop,
    dispose() {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', ignore);
      process.off('SIGHUP', ignore);
      process.off('disconnect', orphaned);
    },
  };
}
