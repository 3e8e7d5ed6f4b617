/**
 * Tracing in `svc serve` (docs/operations.md "Tracing"): whether the manifest's steps are compiled in spans, and
 * the SDK started in each serving process (every worker of `--workers N` exports its own spans)
 * before its first server is built, and stopped, its last spans exported, after the last request.
 *
 * The SDK follows the manifest the process started with: a reload that adds, changes or removes
 * `server { tracing }` takes effect at the next start (the servers a reload builds trace as long as
 * the SDK runs).
 */
import type { Logger } from '../http/index.js';
import type { ServerModel, ServiceModel } from '../model/index.js';
import { startTracing, tracingSettings, tracingWanted, type Env, type Tracing } from '../tracing/index.js';
import { packageVersion } from './version.js';

/** CompileServiceOptions.traceSteps: the block or the environment turns tracing on. */
export function traceStepsOf(env: Env): (model: ServiceModel) => boolean {
  return (model) => tracingWanted(model.server.tracing, env);
}

/** Starts the SDK when tracing is on; undefined when it is off. Rejects when the SDK cannot start. */
export async function startProcessTracing(server: ServerModel, env: Env, logger: Logger): Promise<Tracing | undefined> {
  const settings = tracingSettings(server.tracing, env);
  if (settings === undefined) return undefined;
  const tracing = await startTracing(settings, packageVersion(), exportFailures(logger));
  const endpoint = settings.tracesUrl ?? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://localhost:4318';
  // The collector's origin only: a URL may carry credentials.
  logger.info({ service: settings.serviceName, collector: originOf(endpoint) }, 'tracing');
  return tracing;
}

/** The longest a stopping process waits for its last spans to leave (the exporter retries a refused export). */
const STOP_BOUND_MS = 5000;

/** Exports the last spans and stops, within STOP_BOUND_MS; a failure or the bound costs a warning. */
export async function stopProcessTracing(tracing: Tracing | undefined, logger: Logger): Promise<void> {
  if (tracing === undefined) return;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'bound'>((resolve) => {
    timer = setTimeout(() => resolve('bound'), STOP_BOUND_MS);
    timer.unref();
  });
  try {
    if ((await Promise.race([tracing.stop(), bound])) === 'bound')
      logger.warn({ waitedMs: STOP_BOUND_MS }, 'tracing: the last spans were not exported in time');
  } catch (error) {
    logger.warn({ err: error }, 'tracing: the last spans could not be exported');
  } finally {
    clearTimeout(timer);
  }
}

/** How often a collector that keeps failing is logged: once a minute, with how many failures since. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

/** A warning for spans that could not be exported, at most one a minute: a collector that is down is not a flood. */
function exportFailures(logger: Logger): (error: unknown) => void {
  let lastLoggedAt = -Infinity;
  let unlogged = 0;
  return (error) => {
    unlogged++;
    const now = Date.now();
    if (now - lastLoggedAt < FAILURE_LOG_INTERVAL_MS) return;
    lastLoggedAt = now;
    try {
      logger.warn({ err: error, failures: unlogged }, 'tracing: spans could not be exported');
    } catch {
      // Never a crash from a log line.
    }
    unlogged = 0;
  };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}
