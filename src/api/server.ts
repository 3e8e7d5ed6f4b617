/**
 * `createServer`: a loaded service served on a port of its own, as `svc serve` serves it in one
 * process (src/cli/serve-process.ts): every connection opened before the port, the front server
 * handing requests to the service's app, and a graceful close (requests drained within
 * `shutdown_timeout`, then the connections closed). No signal handler is installed: the program
 * decides when to close. Reloads and workers stay `svc serve`'s.
 */
import { createConnectors } from '../connectors/index.js';
import { closeConnections, compileOptions, serveTelemetry, startGeneration, type Booted, type Generation } from '../cli/index.js';
import { createFront, flushLogger, listenFront, shutdownFront, transportOf, type Front, type Logger } from '../http/index.js';
import { compileService } from '../steps/index.js';
import { Service } from './load.js';

export interface LogOptions {
  /** pino's level names (`silent` included); default: the manifest's `log_level`, else `info`. */
  readonly level?: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
  /** `json` (the default) or `pretty`. */
  readonly format?: 'json' | 'pretty';
  /** Where the lines go; default stdout. */
  readonly stream?: { write(text: string): unknown };
}

export interface CreateServerOptions {
  readonly log?: LogOptions;
}

export interface ListenAddress {
  /** Default: the manifest's `server { host }`. */
  readonly host?: string;
  /** Default: the manifest's `server { port }`; 0 picks a free port. */
  readonly port?: number;
}

export interface SvcServer {
  /** Listens; resolves with the address once requests are accepted. */
  listen(address?: ListenAddress): Promise<{ readonly url: string; readonly host: string; readonly port: number }>;
  /** Stops listening, lets requests in flight finish (within `shutdown_timeout`), closes the connections. */
  close(): Promise<void>;
}

/** Opens the service's connections (a TypeError for a value that is no Service; rejects when one cannot be opened). */
export async function createServer(service: Service, options: CreateServerOptions = {}): Promise<SvcServer> {
  const { booted, logger } = served(service, options.log);
  const generation = await startGeneration(booted, { logger });
  const { server } = booted.model;
  const front = createFront({ ...transportOf(server), requestTimeoutMs: server.requestTimeoutMs, app: generation.app });
  return new ServedService(front, generation, logger);
}

/**
 * @internal The service compiled for serving: `loadService` compiled it as `svc check` does; serving adds the
 * logger's hooks (failed releases, continued failures, metrics and tracing when the manifest turns
 * them on), as `svc serve` compiles it, with handles of its own.
 */
export function served(service: Service, log: LogOptions | undefined): { booted: Booted; logger: Logger } {
  const { booted, steps } = Service.internals(service);
  const { model } = booted;
  const telemetry = serveTelemetry({ level: log?.level, format: log?.format ?? 'json' }, log?.stream ? { stream: log.stream } : {});
  telemetry.settle(model.server);
  const connectors = createConnectors(model);
  const compiled = compileService(model, { ...compileOptions(telemetry.logger), steps, connectors });
  return { booted: { model, service: compiled, connectors }, logger: telemetry.logger };
}

class ServedService implements SvcServer {
  readonly #front: Front;
  readonly #generation: Generation;
  readonly #logger: Logger;
  #closed: Promise<void> | undefined;

  constructor(front: Front, generation: Generation, logger: Logger) {
    this.#front = front;
    this.#generation = generation;
    this.#logger = logger;
  }

  async listen(address: ListenAddress = {}): Promise<{ readonly url: string; readonly host: string; readonly port: number }> {
    const { server } = this.#generation.booted.model;
    const bound = await listenFront(this.#front, { host: address.host ?? server.host, port: address.port ?? server.port });
    this.#logger.info({ url: bound.url }, 'listening');
    return bound;
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      const { shutdownTimeoutMs } = this.#generation.booted.model.server;
      // A server that never listened has nothing to drain but its app.
      if (this.#front.server.listening) await shutdownFront(this.#front, { shutdownTimeoutMs, logger: this.#logger });
      else await this.#generation.app.close();
      await closeConnections(this.#generation);
      flushLogger(this.#logger);
    })();
    return this.#closed;
  }
}
