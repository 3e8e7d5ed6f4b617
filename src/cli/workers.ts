/**
 * `svc serve --workers N` (or `server { workers = N | "auto" }`): Node's cluster. The primary checks
 * the manifest, forks N workers that each run the one-process path (serve-process.ts) with their own
 * connections and pools on one shared port, and serves no HTTP itself. Dead workers are replaced
 * (retried 1 s apart, doubling to 30 s); signals are passed on; a reload replaces workers one at a
 * time, a new one listening before an old one stops, and a new one that cannot boot stops the
 * rollout. What users see: docs/operations.md "Reloading and workers".
 */
import cluster, { type Worker } from 'node:cluster';
import { flushLogger, processSignals, servePrimaryMetrics, type Logger } from '../http/index.js';
import type { Booted, DiagnosticsFormat } from './boot.js';
import { countEndpoints, describeEndpoints, plural } from './endpoint-count.js';
import { EXIT_FAILURE, EXIT_OK, type CliIO } from './io.js';
import { loadForServe } from './serve-load.js';
import { compileOptions } from './serve-process.js';
import { watchManifest } from './watch.js';
import { answerWorkerQuestions } from './worker-channel.js';

/** Set by the primary in its workers' environment. */
const WORKER_MARK = 'SVC_SERVE_WORKER';

/** Whether this process is a worker forked by `svc serve --workers`. */
export function isServeWorker(): boolean {
  return cluster.isWorker && process.env[WORKER_MARK] === '1';
}

export interface PrimaryOptions {
  readonly dir: string;
  readonly io: CliIO;
  readonly format: DiagnosticsFormat;
  readonly logger: Logger;
  readonly watch: boolean;
  readonly workers: number;
  /** Where the workers listen (they work it out from the same flags and environment). */
  readonly bind: { readonly host: string; readonly port: number };
  readonly booted: Booted;
}

const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;
/** How long past `shutdown_timeout` a stopping worker may take before it is killed. */
const HUNG_MARGIN_MS = 5_000;

export async function servePrimary(options: PrimaryOptions): Promise<number> {
  const { io, logger } = options;
  // The workers run this same command line (process.argv, Node's flags included) and find the mark.
  cluster.setupPrimary({ silent: false });
  // A worker's metrics page describes the whole service: the primary gathers every worker's.
  servePrimaryMetrics();
  // A stopping worker closes its channel once the primary says nothing more is on its way to it.
  answerWorkerQuestions();
  const serving = new Set<Worker>();
  const leaving = new Set<Worker>();
  let stopping = false;
  // The port the workers listen on: the one asked for, or the one the first chose (port 0).
  let port = options.bind.port;

  /** A new worker, once it listens; rejects if it exits first (it printed why). */
  const fork = (): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const worker = cluster.fork({ [WORKER_MARK]: '1' });
      const exited = (code: number | null, signal: string | null): void =>
        reject(new Error(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}) before it listened`));
      worker.once('exit', exited);
      worker.once('listening', (address) => {
        worker.off('exit', exited);
        if (port === 0) port = address.port;
        serving.add(worker);
        resolve(worker);
      });
    });

  const replace = async (): Promise<void> => {
    for (let delay = RETRY_FIRST_MS; !stopping; delay = Math.min(delay * 2, RETRY_MAX_MS)) {
      try {
        const worker = await fork();
        logger.info({ pid: worker.process.pid }, 'worker started');
        return;
      } catch (error) {
        logger.error({ err: error, retryInMs: delay }, 'a replacement worker could not start; retrying');
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  };

  cluster.on('exit', (worker, code, signal) => {
    if (leaving.delete(worker) || !serving.delete(worker)) return;
    if (stopping) return;
    logger.error({ pid: worker.process.pid, code, signal }, 'worker exited; starting another');
    io.stderr.write(`svc serve: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another\n`);
    void replace();
  });

  // The signals are ours before the first worker is forked: a signal meeting the default action
  // would end the primary (a SIGHUP sent on seeing the listening line, say). A stop asked for while
  // the workers start is carried out once they have; a reload then has nothing to replace yet.
  let reload: ((reason: string) => void) | undefined;
  const signals = processSignals({
    // Each worker takes a second SIGTERM as "close every connection now".
    onRepeat: () => {
      for (const worker of [...serving, ...leaving]) worker.process.kill('SIGTERM');
    },
    onReload: () => {
      if (reload !== undefined) reload('SIGHUP');
      else logger.warn('SIGHUP while the workers start: nothing to reload yet');
    },
  });
  const started = await Promise.allSettled(Array.from({ length: options.workers }, fork));
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed !== undefined) {
    io.stderr.write(`svc serve: ${(failed.reason as Error).message}; stopping the others\n`);
    stopping = true;
    await stopAll([...serving], options.booted.model.server.shutdownTimeoutMs);
    signals.dispose();
    flushLogger(logger);
    return EXIT_FAILURE;
  }
  let current = options.booted;
  const rollOut = async (reason: string): Promise<void> => {
    logger.info({ reason }, 'reloading the manifest');
    const booted = await loadForServe(options.dir, io, options.format, compileOptions(logger), options.workers);
    if (booted === undefined) {
      logger.error({ reason }, 'reload failed: the manifest has errors; the workers go on with the previous one');
      io.stderr.write('svc serve: reload failed; the previous manifest is still served\n');
      return;
    }
    if (booted.model.server.workers !== current.model.server.workers) {
      logger.warn({ changed: ['workers'] }, 'the number of workers changes when svc serve restarts');
    }
    for (const old of [...serving]) {
      if (stopping) return;
      let next: Worker;
      try {
        next = await fork();
      } catch (error) {
        logger.error({ err: error }, 'reload stopped: a new worker could not start; the others go on with the previous manifest');
        io.stderr.write(`svc serve: reload stopped: ${(error as Error).message}\n`);
        return;
      }
      serving.delete(old);
      leaving.add(old);
      old.process.kill('SIGTERM');
      logger.info({ pid: next.process.pid, replaced: old.process.pid }, 'worker replaced');
    }
    current = booted;
    watcher?.follow(booted.model);
    logger.info({ reason, endpoints: countEndpoints(booted.model).total }, 'reloaded');
    io.stderr.write(`svc serve: reloaded (${describeEndpoints(booted.model).join(', ')}, ${plural(options.workers, 'worker')})\n`);
  };
  const reloadNow = serialized(rollOut, (error) => logger.error({ err: error }, 'reload failed'));
  reload = reloadNow;
  const watcher = options.watch ? watchManifest(options.dir, options.booted.model, () => reloadNow('watch')) : undefined;
  const endpoints = countEndpoints(options.booted.model).total;
  // The workers serve HTTPS when the manifest has `server { tls }` (docs/tls.md).
  const scheme = options.booted.model.server.tls !== undefined ? 'https' : 'http';
  const url = `${scheme}://${options.bind.host.includes(':') ? `[${options.bind.host}]` : options.bind.host}:${port}`;
  logger.info({ url, endpoints, workers: options.workers, pid: process.pid, pids: [...serving].map((w) => w.process.pid) }, 'listening');
  io.stderr.write(`svc serve: listening on ${url} (${describeEndpoints(options.booted.model).join(', ')}, ${plural(options.workers, 'worker')})\n`);

  const signal = await signals.stop;
  stopping = true;
  watcher?.close();
  logger.info({ signal }, 'shutting down');
  const codes = await stopAll([...serving, ...leaving], current.model.server.shutdownTimeoutMs, leaving);
  signals.dispose();
  logger.info('stopped');
  flushLogger(logger);
  return codes.every((code) => code === 0) ? EXIT_OK : EXIT_FAILURE;
}

/**
 * SIGTERM to each worker; resolves with their exit codes once all have exited. A worker still there
 * well after its own shutdown time-out is hung: it is killed (and counts as a failure).
 */
function stopAll(workers: readonly Worker[], shutdownTimeoutMs: number, alreadyTold: ReadonlySet<Worker> = new Set()): Promise<(number | null)[]> {
  const hung = setTimeout(() => {
    for (const worker of workers) if (worker.process.exitCode === null) worker.process.kill('SIGKILL');
  }, shutdownTimeoutMs + HUNG_MARGIN_MS);
  const exited = Promise.all(
    workers.map(
      (worker) =>
        new Promise<number | null>((resolve) => {
          if (worker.process.exitCode !== null || worker.process.signalCode !== null) {
            resolve(worker.process.exitCode);
            return;
          }
          worker.once('exit', (code) => resolve(code));
          // A second SIGTERM would mean "close every connection now" to a worker already stopping.
          if (!alreadyTold.has(worker)) worker.process.kill('SIGTERM');
        }),
    ),
  );
  return exited.finally(() => clearTimeout(hung));
}

/** Runs `task` for one request at a time; requests made meanwhile run it once more afterwards. */
function serialized(task: (reason: string) => Promise<void>, onError: (error: unknown) => void): (reason: string) => void {
  let running = false;
  let again: string | undefined;
  const run = async (reason: string): Promise<void> => {
    running = true;
    for (let next: string | undefined = reason; next !== undefined; ) {
      again = undefined;
      await task(next).catch(onError);
      next = again;
    }
    running = false;
  };
  return (reason) => {
    if (running) again = reason;
    else void run(reason);
  };
}
