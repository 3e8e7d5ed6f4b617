/**
 * The listening side of `svc serve`: one Node server, built once, that hands each request to the
 * current Fastify app (`app.routing`). A reload swaps in the next app: the port never closes, a
 * request already handed to the previous app finishes there, every later one goes to the new app.
 * The previous app is retired: its live and SSE streams end as on shutdown (an EventSource
 * reconnects, to the new app), the rest runs on until done or `shutdown_timeout`, then it is closed.
 * What belongs to the connection rather than an app stays here (node-server.ts, errors.ts
 * clientErrorHandler, connection-states.ts).
 */
import type { Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { ConnectionStates, HttpSocket } from './connection-states.js';
import { clientErrorHandler } from './errors.js';
import type { Logger } from './log.js';
import { createNodeServer, type OwnedResponse } from './node-server.js';
import { renewCertificate, transportOf, type TlsFiles } from './tls.js';
import { type CutReason, cutEveryConnection, cutResponse } from './shutdown-cut.js';

/** A built app, as the rest of svc holds it (only src/http imports fastify). */
export type HttpApp = FastifyInstance;

export interface Front {
  readonly server: Server;
  /** Which connections are idle or silent: a shutdown closes those (lifecycle.ts). */
  readonly connections: ConnectionStates;
  /** The app new requests go to. */
  current(): FastifyInstance;
  /**
   * Sends every request from now on to `next`; resolves once the previous app has finished (or cut
   * short, after `drainTimeoutMs`) what it was serving, and is closed.
   */
  swap(next: FastifyInstance, options: RetireOptions): Promise<void>;
  /**
   * Retires the current app as `swap` retires the previous one, without a next one (the shutdown:
   * the server has stopped accepting connections first).
   */
  retireCurrent(options: RetireOptions): Promise<void>;
  /** Closes every connection at once (a second SIGTERM/SIGINT); their requests are logged as cut by the shutdown. */
  cutEveryConnection(): void;
  /**
   * A reload's certificate and key (tls.ts): new handshakes use them, connections already open keep
   * theirs. False when the server is not serving TLS (a `tls` block added takes a restart).
   */
  renewCertificate(tls: TlsFiles): boolean;
}

export interface RetireOptions {
  readonly drainTimeoutMs: number;
  readonly logger: Logger;
}

interface Generation {
  readonly app: FastifyInstance;
  /** Set once the app is being retired: the responses it has yet to finish. */
  retiring: Retirement | undefined;
}

export interface FrontOptions {
  /** `server.request_timeout` of the first manifest: bounds receiving every request (node-server.ts). */
  readonly requestTimeoutMs: number;
  readonly app: FastifyInstance;
  /** `server.tls` / `server.h2c` of the first manifest (h2-server.ts); a reload renews the certificate only. */
  readonly tls?: TlsFiles;
  readonly h2c?: boolean;
}

/**
 * Which app serves a request is decided when it arrives and written on its response (`svcOwner`, a
 * field of svc's response class): nothing is counted and no listener is added per request. Only
 * when an app is retired are its unfinished responses looked up, on the connections that are
 * writing them, and followed until they close.
 */
export function createFront(options: FrontOptions): Front {
  let current: Generation = generation(options.app);
  const settings = { ...transportOf(options), requestTimeoutMs: options.requestTimeoutMs, log: () => current.app.svcLogLine };
  const { server, connections } = createNodeServer(settings, (req, res) => {
    const serving = current;
    res.svcOwner = serving;
    // A request that arrives while its app is being retired (on a kept-alive connection, during a
    // shutdown) is waited for too.
    if (serving.retiring !== undefined) serving.retiring.follow(res);
    serving.app.routing(req, res);
  });
  server.on('clientError', clientErrorHandler);
  const retire = (retired: Generation, retireOptions: RetireOptions, reason: CutReason) => retireGeneration(retired, connections, retireOptions, reason);
  return {
    server,
    connections,
    current: () => current.app,
    swap(next, retireOptions) {
      const previous = current;
      current = generation(next);
      return retire(previous, retireOptions, 'reload');
    },
    retireCurrent: (retireOptions) => retire(current, retireOptions, 'shutdown'),
    cutEveryConnection: () => cutEveryConnection(server, connections),
    renewCertificate: (tls) => options.tls !== undefined && renewCertificate(server, tls),
  };
}

function generation(app: FastifyInstance): Generation {
  return { app, retiring: undefined };
}

async function retireGeneration(generation: Generation, connections: ConnectionStates, options: RetireOptions, reason: CutReason): Promise<void> {
  generation.app.svcStreams.stopAll();
  const retirement = new Retirement(generation);
  generation.retiring = retirement;
  for (const res of connections.writing()) retirement.follow(res);
  await retirement.finished(options, reason);
  await generation.app.close();
}

/** The responses of an app being retired, followed until the last one closes. */
class Retirement {
  private readonly unfinished = new Set<OwnedResponse>();
  private onIdle: (() => void) | undefined;

  constructor(private readonly generation: Generation) {}

  /** Follows `res` if this app serves it and it has not closed yet. */
  follow(res: ServerResponse): void {
    const owned = res as OwnedResponse;
    if (owned.svcOwner !== this.generation || owned.closed || this.unfinished.has(owned)) return;
    this.unfinished.add(owned);
    const socket = owned.socket as HttpSocket | null;
    owned.once('close', () => {
      this.unfinished.delete(owned);
      // A pipelined request's response is handed the connection as the one before it finishes; it
      // was routed when it arrived, maybe to this app, before it could be seen on the connection.
      const next = socket?._httpMessage;
      if (next != null) this.follow(next);
      if (this.unfinished.size === 0) this.onIdle?.();
    });
  }

  /** Resolves once every followed response has closed, or `drainTimeoutMs` has passed (those left are destroyed). */
  finished(options: RetireOptions, reason: CutReason): Promise<void> {
    if (this.unfinished.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const deadline = setTimeout(() => {
        options.logger.warn(
          { requests: this.unfinished.size, shutdownTimeoutMs: options.drainTimeoutMs },
          'shutdown time-out: closing the connections of unfinished requests',
        );
        for (const res of this.unfinished) cutResponse(res, reason);
        resolve();
      }, options.drainTimeoutMs);
      this.onIdle = () => {
        clearTimeout(deadline);
        resolve();
      };
    });
  }
}
