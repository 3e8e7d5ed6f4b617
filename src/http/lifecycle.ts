/**
 * Listening and graceful shutdown.
 *
 * On SIGTERM or SIGINT the server stops accepting connections, lets in-flight requests finish within
 * `server.shutdown_timeout`, then closes whatever connections remain; the process exits 0. Idle
 * keep-alive connections are closed as soon as they are idle, so a busy client does not hold the
 * shutdown open until the time-out. `svc serve` listens through a front server (front.ts) whose app
 * a reload swaps: `listenFront`/`shutdownFront`; `listen`/`shutdown` serve one app on its own server.
 */
import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ConnectionStates } from './connection-states.js';
import type { Front } from './front.js';
import type { Logger } from './log.js';
import { cutEveryConnection } from './shutdown-cut.js';
import { schemeOf } from './tls.js';

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
  return { host: options.host, port, url: `${schemeOf(app.server)}://${shown}:${port}` };
}

export interface ShutdownOptions {
  readonly shutdownTimeoutMs: number;
  readonly logger: Logger;
}

/** Closes the server gracefully; resolves once every connection is gone and the app is closed. */
export async function shutdown(app: FastifyInstance, options: ShutdownOptions): Promise<void> {
  // Live and SSE streams never end by themselves: they end now, politely (SSE: a last comment), and
  // their clients reconnect elsewhere. Finite streams (exports) run on within the time-out.
  app.svcStreams.stopAll();
  // Fastify's close would close the server the Node way (see stopListening): it runs once the
  // connections are gone, and finds the server closed already.
  await draining(app.server, app.svcConnections, options, async (closed) => {
    await closed;
    await app.close();
  });
}

/**
 * Stops listening, then runs `drain` (handed the promise of the last connection's close) while
 * connections are closed as they turn idle after their last response, and silent ones once their
 * grace is over; whatever remains at `shutdownTimeoutMs` is cut.
 */
async function draining(
  server: Server,
  connections: ConnectionStates,
  options: ShutdownOptions,
  drain: (closed: Promise<void>) => Promise<unknown>,
): Promise<void> {
  const closed = stopListening(server);
  // HTTP/2: a GOAWAY to every session; its streams in flight finish, then it closes (h2-server.ts).
  connections.closeSessions();
  const sweep = setInterval(() => {
    for (const socket of connections.idle()) socket.destroy();
    for (const socket of connections.silent(SILENT_GRACE_MS)) socket.destroy();
  }, 50);
  const deadline = setTimeout(() => {
    options.logger.warn({ shutdownTimeoutMs: options.shutdownTimeoutMs }, 'shutdown time-out: closing remaining connections');
    cutEveryConnection(server, connections);
  }, options.shutdownTimeoutMs);
  try {
    await drain(closed);
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
}

/**
 * Stops accepting connections; resolves once the last open one has closed. `net.Server`'s close, not
 * `http.Server`'s: that one also closes, at once, every connection that has not sent a request yet on
 * Node.js 26 (connection-states.ts), which would reset requests already on their way.
 */
function stopListening(server: Server): Promise<void> {
  return new Promise((resolve) => NetServer.prototype.close.call(server, () => resolve()));
}

/** How long a connection may stay silent after it was accepted before a shutdown closes it. */
const SILENT_GRACE_MS = 500;

/** Starts the front server listening; answers the bound address (`port: 0` chooses a free port). */
export async function listenFront(front: Front, options: ListenOptions): Promise<{ host: string; port: number; url: string }> {
  const { server } = front;
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error): void => reject(error);
    server.once('error', failed);
    server.listen({ host: options.host, port: options.port }, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const shown = options.host.includes(':') ? `[${options.host}]` : options.host;
  return { host: options.host, port, url: `${schemeOf(server)}://${shown}:${port}` };
}

/**
 * `shutdown` for the front server of `svc serve` (front.ts): stop accepting, end live streams, let
 * requests finish within the time-out, close idle and silent connections as they turn so; resolves
 * once every connection is gone and the current app is closed.
 */
export async function shutdownFront(front: Front, options: ShutdownOptions): Promise<void> {
  await draining(front.server, front.connections, options, async (closed) => {
    await front.retireCurrent({ drainTimeoutMs: options.shutdownTimeoutMs, logger: options.logger });
    await closed;
  });
}

export interface ProcessSignals {
  /** Resolves with the first SIGTERM or SIGINT. */
  readonly stop: Promise<NodeJS.Signals>;
  /** Stops listening for signals (after the shutdown). */
  dispose(): void;
}

/**
 * SIGTERM/SIGINT resolve `stop` (a second one calls `onRepeat`: close every connection at once);
 * SIGHUP calls `onReload` each time.
 */
export function processSignals(handlers: { onRepeat(): void; onReload(): void }): ProcessSignals {
  let stopped = false;
  let resolveStop!: (signal: NodeJS.Signals) => void;
  const stop = new Promise<NodeJS.Signals>((resolve) => (resolveStop = resolve));
  const onStop = (signal: NodeJS.Signals): void => {
    if (stopped) handlers.onRepeat();
    else {
      stopped = true;
      resolveStop(signal);
    }
  };
  const onHangUp = (): void => handlers.onReload();
  process.on('SIGTERM', onStop);
  process.on('SIGINT', onStop);
  process.on('SIGHUP', onHangUp);
  return {
    stop,
    dispose() {
      process.off('SIGTERM', onStop);
      process.off('SIGINT', onStop);
      process.off('SIGHUP', onHangUp);
    },
  };
}
