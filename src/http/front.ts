/**
 * The listening side of `svc serve`: one Node server, built once, that hands each request to the
 * current Fastify app (`app.routing`, Fastify's own request entry point). A reload builds the next
 * app without listening and swaps it in: the port never closes, a request already handed to the
 * previous app finishes there (on its graphs and connections), and every request that arrives after
 * the swap, on a new connection or a kept-alive one, goes to the new app.
 *
 * The previous app is then retired: its live and SSE streams end as on shutdown (a last comment; an
 * EventSource reconnects, to the new app), finite streams and requests run on, and once nothing of it
 * is left, or `shutdown_timeout` has passed (what remains is then cut short), it is closed.
 *
 * What belongs to the connection rather than to an app stays here: the receive time-outs and the
 * answer to a request without Host (node-server.ts), the 408/400/431 written on a bad socket
 * (errors.ts clientErrorHandler), and which connections a shutdown may close (connection-states.ts).
 */
import type { Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { type ConnectionStates, trackConnections } from './connection-states.js';
import { clientErrorHandler } from './errors.js';
import type { Logger } from './log.js';
import { createNodeServer } from './node-server.js';

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
}

export interface RetireOptions {
  readonly drainTimeoutMs: number;
  readonly logger: Logger;
}

interface Generation {
  readonly app: FastifyInstance;
  /** Responses handed to this app and not yet closed. */
  readonly inflight: Set<ServerResponse>;
  /** Set while retiring: called when the last response closes. */
  onIdle?: (() => void) | undefined;
}

export interface FrontOptions {
  /** `server.request_timeout` of the first manifest: bounds receiving every request (node-server.ts). */
  readonly requestTimeoutMs: number;
  readonly app: FastifyInstance;
}

export function createFront(options: FrontOptions): Front {
  let current: Generation = generation(options.app);
  const server = createNodeServer({ requestTimeoutMs: options.requestTimeoutMs, log: () => current.app.svcLogLine }, (req, res) => {
    const serving = current;
    serving.inflight.add(res);
    // The generation rides on the response and the listener is one function for all: no closure
    // and no `once` wrapper per request (this runs on every request).
    (res as ServingResponse)[SERVED_BY] = serving;
    res.on('close', responseClosed);
    serving.app.routing(req, res);
  });
  server.on('clientError', clientErrorHandler);
  return {
    server,
    connections: trackConnections(server),
    current: () => current.app,
    swap(next, retireOptions) {
      const previous = current;
      current = generation(next);
      return retire(previous, retireOptions);
    },
    retireCurrent: (retireOptions) => retire(current, retireOptions),
  };
}

const SERVED_BY = Symbol('svc.servedBy');
type ServingResponse = ServerResponse & { [SERVED_BY]?: Generation };

function responseClosed(this: ServingResponse): void {
  const serving = this[SERVED_BY]!;
  serving.inflight.delete(this);
  if (serving.inflight.size === 0) serving.onIdle?.();
}

function generation(app: FastifyInstance): Generation {
  return { app, inflight: new Set() };
}

async function retire(generation: Generation, options: RetireOptions): Promise<void> {
  generation.app.svcStreams.stopAll();
  if (generation.inflight.size > 0) {
    await new Promise<void>((resolve) => {
      const deadline = setTimeout(() => {
        options.logger.warn(
          { requests: generation.inflight.size, shutdownTimeoutMs: options.drainTimeoutMs },
          'shutdown time-out: closing the connections of unfinished requests',
        );
        for (const res of generation.inflight) res.destroy();
        resolve();
      }, options.drainTimeoutMs);
      generation.onIdle = () => {
        clearTimeout(deadline);
        resolve();
      };
    });
  }
  await generation.app.close();
}
