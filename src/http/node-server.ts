/**
 * The Node HTTP server under Fastify (its `serverFactory`), built here because (issue 15): Node bounds
 * a request's body by `requestTimeout` only when the constructor gets it (Fastify sets it later, and a
 * body trickled a byte a second held its connection for minutes), and Node answers an HTTP/1.1
 * request without `Host` with a bare 400, which is a 400 problem here instead.
 *
 * Writes leave at the end of each turn (src/io); `tls`/`h2c` use node:http2 (h2-server.ts). Per-request
 * fields are declared on Node's classes (`ArrivingMessage`, `OwnedResponse`) so setting them adds no
 * property to a Node object.
 */
import { createServer, IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { PROBLEM_CONTENT_TYPE, problem } from '../problem/index.js';
import { type ConnectionStates, trackConnections } from './connection-states.js';
import type { RequestLogger } from './log.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
import { TurnEndWrites } from '../io/index.js';
import { boundH2Body, createH2Server, isHttp2Response, type TlsFiles } from './h2-server.js';

/** A request stamped with when it arrived (its headers parsed): the log line's `ms` counts from it. */
export class ArrivingMessage extends IncomingMessage {
  svcArrivedAt?: number = performance.now();
}

/**
 * A response with the app that serves it (front.ts), which a reload retires, and the asynchronous run
 * waiting to answer it (handler.ts), which the response's `close` before the answer cancels.
 */
export class OwnedResponse extends ServerResponse {
  svcOwner?: object = undefined;
  svcWaiting?: { clientClosed(): void } = undefined;
}

/** Fastify's default, kept: idle keep-alive connections are closed after 72 s. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

export interface NodeServerOptions {
  /** `server.request_timeout` in milliseconds. */
  readonly requestTimeoutMs: number;
  /** The request log; read when a request is answered (Fastify decorates the instance later). */
  readonly log: () => RequestLogger;
  /** `server.tls`: HTTPS with HTTP/2 by ALPN (h2-server.ts); absent, cleartext. */
  readonly tls?: TlsFiles;
  /** `server.h2c`: cleartext HTTP/2 by prior knowledge, without HTTP/1.1. */
  readonly h2c?: boolean;
}

/** How often Node looks for requests past their time-out: a tenth of it, within 100 ms and 30 s. */
export function checkIntervalMs(requestTimeoutMs: number): number {
  return Math.min(30_000, Math.max(100, Math.floor(requestTimeoutMs / 10)));
}

type RequestHandler = (req: ArrivingMessage, res: OwnedResponse) => void;

export interface NodeServer {
  readonly server: Server;
  readonly connections: ConnectionStates;
}

/**
 * The server itself: `svc serve` builds one (front.ts) and hands each request to the current app;
 * an app built on its own (tests, `listen`) builds one as Fastify's `serverFactory` (server.ts).
 */
export function createNodeServer(options: NodeServerOptions, handler: RequestHandler): NodeServer {
  if (options.tls !== undefined || options.h2c === true) return createHttp2NodeServer(options, handler);
  const { requestTimeoutMs } = options;
  const server = createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: checkIntervalMs(requestTimeoutMs),
      requireHostHeader: false,
      IncomingMessage: ArrivingMessage,
      ServerResponse: OwnedResponse,
    },
    (req, res) => {
      connections.requestArrived(req.socket);
      if (req.headers.host === undefined && (req.httpVersionMajor > 1 || req.httpVersionMinor >= 1)) {
        answerWithoutHost(req, res, options.log());
        return;
      }
      handler(req, res);
    },
  );
  const connections = trackConnections(server);
  // One queue per server, handed to each connection it accepts: its answers of a turn leave together.
  const writes = new TurnEndWrites();
  server.on('connection', (socket: Socket) => writes.hold(socket));
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  return { server, connections };
}

/**
 * The HTTP/2 server (TLS with HTTP/1.1 beside it, or h2c). It is not an `http.Server`, but what svc
 * uses of one is there: `listen`, `address`, net.Server's `close`, `clientError` for its HTTP/1.1
 * connections, and `closeAllConnections` (added here: every connection and session, at once).
 */
function createHttp2NodeServer(options: NodeServerOptions, handler: RequestHandler): NodeServer {
  const { requestTimeoutMs } = options;
  const h2 = createH2Server(options.tls, { IncomingMessage: ArrivingMessage, ServerResponse: OwnedResponse });
  const server = h2 as unknown as Server;
  // Read by Node's HTTP/1.1 connection handling of the fallback, as the constructor options above.
  server.requestTimeout = requestTimeoutMs;
  server.headersTimeout = requestTimeoutMs;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = checkIntervalMs(requestTimeoutMs);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  const connections = trackConnections(server, options.tls !== undefined ? 'secureConnection' : 'connection');
  server.closeAllConnections = () => connections.closeAll();
  // As HTTP/1.1's keep-alive: a session without a stream for as long is closed (GOAWAY).
  h2.on('session', (session) => session.setTimeout(KEEP_ALIVE_TIMEOUT_MS, () => session.close()));
  h2.on('request', (req, res) => {
    if (isHttp2Response(res)) {
      connections.streamArrived(res);
      boundH2Body(req, res, requestTimeoutMs, options.log);
      handler(req as unknown as ArrivingMessage, res as unknown as OwnedResponse);
      return;
    }
    // An HTTP/1.1 request of the TLS server's fallback: as on the cleartext server.
    const http1 = req as unknown as ArrivingMessage;
    connections.requestArrived(http1.socket);
    if (http1.headers.host === undefined && http1.httpVersionMinor >= 1) {
      answerWithoutHost(http1, res as unknown as OwnedResponse, options.log());
      return;
    }
    handler(http1, res as unknown as OwnedResponse);
  });
  return { server, connections };
}

/** The 400 of an HTTP/1.1 request without `Host` (RFC 9112 §3.2), written without Fastify. */
function answerWithoutHost(req: ArrivingMessage, res: OwnedResponse, log: RequestLogger): void {
  const started = performance.now();
  const id = requestIdOf(req);
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const body = JSON.stringify({ ...problem(400, undefined, 'an HTTP/1.1 request must have a Host header'), instance: q < 0 ? url : url.slice(0, q) });
  res.writeHead(400, {
    'content-type': PROBLEM_CONTENT_TYPE,
    'content-length': Buffer.byteLength(body),
    [REQUEST_ID_HEADER]: id,
    // A client that omits Host is not one to keep talking to.
    connection: 'close',
  });
  res.end(body);
  try {
    log(id, req.method ?? '', url, 400, performance.now() - started, null);
  } catch {
    // Logging never takes the server down.
  }
}
