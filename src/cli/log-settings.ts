/**
 * `svc serve`'s logging and metrics settings in one place. Level: `--log-level`, else `LOG_LEVEL`,
 * else `server { log_level }`, else `info`; the logger exists before the manifest is read and takes
 * the block's level (`settle`) before any server is built, so nothing is logged between. Metrics are
 * one registry for the life of the process (a reload keeps counting), made when a manifest first
 * turns them on.
 */
import { createLogger, createMetrics, LOG_FORMATS, type LogFormat, type Logger, type ServerOptions, type ServiceMetrics } from '../http/index.js';
import type { ConnectorSet } from '../connectors/index.js';
import { LOG_LEVELS, type LogLevel } from '../manifest/index.js';
import type { ServerModel, ServiceModel } from '../model/index.js';
import type { StepObserver } from '../steps/index.js';
import { flagString, UsageError, type ParsedArgs } from './args.js';

/** The flags this file reads, spread into `svc serve`'s flag list. */
export const LOG_FLAGS = [
  { name: 'log-level', value: true },
  { name: 'log-format', value: true },
] as const;

export interface LogSettings {
  /** From the flag or LOG_LEVEL; absent when neither says (the server block then decides). */
  readonly level: LogLevel | undefined;
  readonly format: LogFormat;
}

/** The flags and the environment; a value that is not a level or a format is a usage error (exit 2). */
export function logSettings(args: ParsedArgs, env: Readonly<Record<string, string | undefined>>): LogSettings {
  const flag = flagString(args, 'log-level');
  const fromEnv = env.LOG_LEVEL === '' ? undefined : env.LOG_LEVEL;
  const level = flag !== undefined ? choice(flag, LOG_LEVELS, '--log-level') : fromEnv !== undefined ? choice(fromEnv, LOG_LEVELS, 'LOG_LEVEL') : undefined;
  const format = choice(flagString(args, 'log-format') ?? 'json', LOG_FORMATS, '--log-format');
  return { level, format };
}

/** The level in force: flag, LOG_LEVEL, the server block, `info`. */
export function logLevelOf(settings: LogSettings, server: Pick<ServerModel, 'logLevel'>): LogLevel {
  return settings.level ?? server.logLevel ?? 'info';
}

function choice<T extends string>(value: string, allowed: readonly T[], where: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${where} must be one of ${allowed.join(', ')}; got "${value}"`);
}

/** What `svc serve` logs and measures with. */
export interface ServeTelemetry {
  readonly logger: Logger;
  /** CompileServiceOptions.observeSteps: the registry's step observer when the manifest turns metrics on. */
  observeSteps(model: ServiceModel): StepObserver | undefined;
  /** Once the manifest is loaded: its level, unless the flag or LOG_LEVEL set one. */
  settle(server: ServerModel): void;
  /** The logging and metrics part of the options of a server built for `server` and its connections. */
  serverOptions(server: ServerModel, connectors: ConnectorSet): Pick<ServerOptions, 'logger' | 'accessLog' | 'metrics'>;
}

/** The telemetry of each serve logger: what the boot, the workers and every reload share. */
const TELEMETRY = new WeakMap<Logger, ServeTelemetry>();

/** `stream`: where lines go instead of stdout (tests). */
export function serveTelemetry(settings: LogSettings, options: { readonly stream?: { write(text: string): unknown } } = {}): ServeTelemetry {
  const logger = createLogger({ format: settings.format, level: settings.level ?? 'info', ...(options.stream ? { stream: options.stream } : {}) });
  return telemetryWith(logger, settings);
}

/**
 * The telemetry `logger` was made with (serveTelemetry), so the code that only holds the logger
 * (compile options, each generation's server) reaches the same registry; a logger made otherwise
 * gets one of its own, with the server block deciding its level.
 */
export function telemetryOf(logger: Logger): ServeTelemetry {
  return TELEMETRY.get(logger) ?? telemetryWith(logger, { level: undefined, format: 'json' });
}

function telemetryWith(logger: Logger, settings: LogSettings): ServeTelemetry {
  let metrics: ServiceMetrics | undefined;
  const metricsFor = (server: ServerModel): ServiceMetrics | undefined => (server.metricsPath === undefined ? undefined : (metrics ??= createMetrics()));
  const telemetry: ServeTelemetry = {
    logger,
    observeSteps: (model) => metricsFor(model.server)?.steps,
    settle(server) {
      logger.level = logLevelOf(settings, server);
    },
    serverOptions(server, connectors) {
      // Before the server reads the level (log.ts decides once whether request lines are written).
      telemetry.settle(server);
      const on = metricsFor(server);
      return {
        logger,
        accessLog: server.accessLog,
        ...(on !== undefined && server.metricsPath !== undefined ? { metrics: { path: server.metricsPath, metrics: on, connectors } } : {}),
      };
    },
  };
  TELEMETRY.set(logger, telemetry);
  return telemetry;
}
