/**
 * `svc serve -c DIR [--host H] [--port P] [--watch] [--workers N|auto]`: boot, listen, serve until
 * SIGTERM/SIGINT, exit 0 after a graceful shutdown; SIGHUP (and, with `--watch`, a change to the
 * manifest's files) reloads the manifest without closing the port. Host and port: flag, else
 * SVC_HOST/HOST and SVC_PORT/PORT, else the server block. Workers: flag, else the server block, else 1;
 * with more than one, a primary process forks them (workers.ts), each serving as one process does
 * (serve-process.ts).
 */
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { flagString, parseArgs, parsePort, UsageError, type ParsedArgs } from './args.js';
import { configDir, diagnosticsFormat } from './boot.js';
import { EXIT_FAILURE, type CliIO } from './io.js';
import { LOG_FLAGS, logSettings, serveTelemetry, telemetryOf } from './log-settings.js';
import { loadForServe } from './serve-load.js';
import { compileOptions, serveProcess } from './serve-process.js';
import { nothingInFlight } from './worker-channel.js';
import { isServeWorker, servePrimary } from './workers.js';

export const SERVE_FLAGS = [
  { name: 'config', short: 'c', value: true },
  { name: 'host', value: true },
  { name: 'port', short: 'p', value: true },
  { name: 'diagnostics', value: true },
  { name: 'watch', value: false },
  { name: 'workers', value: true },
  ...LOG_FLAGS,
] as const;

export async function serveCommand(argv: string[], io: CliIO): Promise<number> {
  const args = parseArgs(argv, SERVE_FLAGS);
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const dir = configDir(args, io);
  const format = diagnosticsFormat(args);
  // Checked before booting, so a bad --port or --workers is reported without loading anything.
  bindAddress(args, io.env, { host: '127.0.0.1', port: 8080 });
  const workersFlag = workersOf(flagString(args, 'workers'));
  const watch = args.flags.watch === true;

  // Level: --log-level, else LOG_LEVEL, else the server block (once loaded), else info (log-settings.ts).
  const logger = serveTelemetry(logSettings(args, io.env)).logger;
  const bind = (server: { readonly host: string; readonly port: number }) => bindAddress(args, io.env, server);
  // A worker forked by the primary below: the same command line, served as one process.
  if (isServeWorker()) {
    const code = await serveProcess({ dir, io, format, logger, watch: false, bind, worker: true });
    // The primary may have handed this worker a connection just as it stopped listening: received
    // while the channel is open, it goes back to another worker; lost with the process, the client
    // would wait forever. So the channel stays open until the primary says nothing more is on its
    // way (worker-channel.ts), then closes (it would otherwise keep the process alive). The worker's
    // disconnect, not the process's: a worker whose channel closes unannounced exits at once, with
    // 0, and a worker that failed must exit with its failure.
    await nothingInFlight();
    cluster.worker?.disconnect();
    return code;
  }
  const booted = await loadForServe(dir, io, format, compileOptions(logger), workersFlag);
  if (!booted) return EXIT_FAILURE;
  telemetryOf(logger).settle(booted.model.server);
  const workers = workerCount(workersFlag ?? booted.model.server.workers ?? 1);
  if (workers > 1) return servePrimary({ dir, io, format, logger, watch, workers, bind: bind(booted.model.server), booted });
  return serveProcess({ dir, io, format, logger, watch, bind, booted });
}

/** `--workers N|auto`: a whole number of processes from 1, or one per core. */
function workersOf(flag: string | undefined): number | 'auto' | undefined {
  if (flag === undefined || flag === 'auto') return flag;
  if (!/^\d+$/.test(flag) || Number(flag) < 1 || Number(flag) > 1024) {
    throw new UsageError(`--workers must be a whole number of processes from 1 to 1024, or "auto"; got "${flag}"`);
  }
  return Number(flag);
}

/** The number of processes `workers` asks for: "auto" is one per core. */
function workerCount(workers: number | 'auto'): number {
  return workers === 'auto' ? availableParallelism() : workers;
}

/** Flag, else SVC_HOST/HOST and SVC_PORT/PORT (the more specific first), else the server block. */
export function bindAddress(
  args: ParsedArgs,
  env: Readonly<Record<string, string | undefined>>,
  server: { readonly host: string; readonly port: number },
): { host: string; port: number } {
  const host = flagString(args, 'host') ?? nonEmpty(env.SVC_HOST) ?? nonEmpty(env.HOST) ?? server.host;
  const portFlag = flagString(args, 'port');
  let port = server.port;
  if (portFlag !== undefined) port = parsePort(portFlag, '--port');
  else if (nonEmpty(env.SVC_PORT) !== undefined) port = parsePort(env.SVC_PORT!, 'SVC_PORT');
  else if (nonEmpty(env.PORT) !== undefined) port = parsePort(env.PORT!, 'PORT');
  return { host, port };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
