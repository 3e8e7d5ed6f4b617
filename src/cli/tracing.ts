/**
 * Tracing in `svc serve` (README "Tracing"): whether the manifest's steps are compiled in spans, and
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
  const tracing = await startTracing(settings, packageVersion());
  const endpoint = settings.tracesUrl ?? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://localhost:4318';
  // The collector's origin only: a URL may carry credentials.
  logger.info({ service: settings.serviceName, collector: originOf(endpoint) }, 'tracing');
  return tracing;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}
