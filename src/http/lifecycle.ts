/**
 * Listening and graceful shutdown.
 *
 * On SIGTERM or SIGINT the server stops accepting connections, lets in-flight requests finish within
 * `server.shutdown_timeout`, then closes whatever connections remain; the process exits 0. Idle
 * keep-alive connections are closed as soon as they are idle, so a busy client does not hold the
 * shutdown open until the time-out.
 */
import type { FastifyInstance } from 'fastify';
import { flushLogger, type Logger } from './log.js';

export interface ListenOptions {
  readonly host: string;
  readonly port: number;
}

/** Starts listening; answers the bound address (`port: 0` chooses a free port). */
export async function listen(app: FastifyInstance, options: ListenOptions): Promise<{ host: string; port: number; url: string }> {
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const shown = options.host.includes(':') ? `[${options.host}]` : options.host;
  return { host: options.host, port, url: `http://${shown}:${port}` };
}

export interface ShutdownOptions {
  readonly shutdownTimeoutMs: number;
  readonly logger: Logger;
}

/** Closes the server gracefully; resolves once every connection is gone. */
export async function shutdown(app: FastifyInstance, options: ShutdownOptions): Promise<void> {
  const server = app.server;
  // Live and SSE streams never end by themselves: they end now, politely (SSE: a last comment), and
  // their clients reconnect elsewhere. Finite streams (exports) run on within the time-out.
  app.svcStreams.stopAll();
  // Connections that turn idle after their last response are closed as they do. A connection that
  // never sent a request (a browser's or a client pool's spare socket) is not idle to Node, and would
  // hold the shutdown for the whole time-out: those are closed too.
  const sweep = setInterval(() => {
    server.closeIdleConnections();
    for (const socket of app.svcSilentSockets) socket.destroy();
  }, 50);
  const deadline = setTimeout(() => {
    options.logger.warn({ shutdownTimeoutMs: options.shutdownTimeoutMs }, 'shutdown time-out: closing remaining connections');
    server.closeAllConnections();
  }, options.shutdownTimeoutMs);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
}

/**
 * Resolves with the exit code once a SIGTERM or SIGINT has shut the server down. A second signal during
 * the shutdown closes every connection at once.
 */
export function shutdownOnSignals(app: FastifyInstance, options: ShutdownOptions): Promise<number> {
  return new Promise((resolve) => {
    let closing = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (closing) {
        app.server.closeAllConnections();
        return;
      }
      closing = true;
      options.logger.info({ signal }, 'shutting down');
      shutdown(app, options).then(
        () => {
          options.logger.info('stopped');
          flushLogger(options.logger);
          process.off('SIGTERM', onSignal);
          process.off('SIGINT', onSignal);
          resolve(0);
        },
        (error: unknown) => {
          options.logger.error({ err: error }, 'shutdown failed');
          flushLogger(options.logger);
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}
