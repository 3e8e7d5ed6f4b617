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
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Front } from './front.js';
import type { Logger } from './log.js';

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
  // A connection that never sent a request (a browser's or a client pool's spare socket) is not idle
  // to Node, and would hold the shutdown for the whole time-out: those are closed too.
  await draining(
    server,
    () => app.svcSilentSockets,
    options,
    () => app.close(),
  );
}

/**
 * Runs `drain` while connections are closed as they turn idle after their last response, the silent
 * ones `silent` names too, and whatever remains at `shutdownTimeoutMs` is cut.
 */
async function draining(server: Server, silent: () => Iterable<Socket>, options: ShutdownOptions, drain: () => Promise<unknown>): Promise<void> {
  const sweep = setInterval(() => {
    server.closeIdleConnections();
    for (const socket of silent()) socket.destroy();
  }, 50);
  const deadline = setTimeout(() => {
    options.logger.warn({ shutdownTimeoutMs: options.shutdownTimeoutMs }, 'shutdown time-out: closing remaining connections');
    server.closeAllConnections();
  }, options.shutdownTimeoutMs);
  try {
    await drain();
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
}

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
  return { host: options.host, port, url: `http://${shown}:${port}` };
}

/**
 * `shutdown` for the front server of `svc serve` (front.ts): stop accepting, end live streams, let
 * requests finish within the time-out, close idle and silent connections as they turn so; resolves
 * once every connection is gone and the current app is closed.
 */
export async function shutdownFront(front: Front, options: ShutdownOptions): Promise<void> {
  const { server } = front;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Not one accepted a moment ago: its request may be on its way, and closing it would fail a request
  // that reached the server (a reset instead of an answer).
  await draining(
    server,
    () => front.silentSockets(SILENT_GRACE_MS),
    options,
    async () => {
      await front.retireCurrent({ drainTimeoutMs: options.shutdownTimeoutMs, logger: options.logger });
      await closed;
    },
  );
}

/** How long a connection may stay silent after it was accepted before a shutdown closes it. */
const SILENT_GRACE_MS = 500;

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
