/**
 * The server of `server { tls { ... } }` and `server { h2c = true }` (docs/tls.md), with node-server.ts's
 * promises: TLS is node:http2's secure server, HTTP/2 by ALPN and HTTP/1.1 beside it with the same
 * receive time-outs; h2c is cleartext HTTP/2 by prior knowledge only (no `Upgrade: h2c`).
 *
 * Node's HTTP/2 server has no receive time-out: a body still arriving `request_timeout` after its
 * headers is answered 408 here and reset with NO_ERROR (RFC 9113 §8.1). Rapid reset (CVE-2023-44487)
 * is bounded by nghttp2 from Node 20.8.1 (test/http/tls.test.ts), and `maxConcurrentStreams` bounds
 * one session. Writes are not held to the turn's end (src/io): TLS encrypts below the JavaScript
 * socket and HTTP/2 frames per session, so holding the raw socket's writes would hold nothing.
 */
import {
  constants,
  createSecureServer,
  createServer,
  Http2ServerRequest,
  Http2ServerResponse,
  type Http2SecureServer,
  type Http2Server,
  type SecureServerOptions,
  type ServerOptions,
} from 'node:http2';
import { performance } from 'node:perf_hooks';
import { PROBLEM_CONTENT_TYPE, problem } from '../problem/index.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
import type { RequestLogger } from './log.js';

/** An HTTP/2 request stamped with when it arrived, as node-server.ts's `ArrivingMessage`. */
export class ArrivingH2Request extends Http2ServerRequest {
  svcArrivedAt?: number = performance.now();
}

/** An HTTP/2 response with the fields of node-server.ts's `OwnedResponse` (front.ts, handler.ts). */
export class OwnedH2Response extends Http2ServerResponse {
  svcOwner?: object = undefined;
  svcWaiting?: { clientClosed(): void } = undefined;
}

/** Whether `res` answers an HTTP/2 stream (its socket is the session's, shared with other requests). */
export function isHttp2Response(res: object): res is Http2ServerResponse {
  return res instanceof Http2ServerResponse;
}

/** The certificate and key, PEM. */
export interface TlsFiles {
  readonly cert: string;
  readonly key: string;
}

/** Streams one session runs at once: Node's default (unbounded) would let one client hold them all. */
const MAX_CONCURRENT_STREAMS = 128;

export type H2Server = Http2SecureServer | Http2Server;

export function createH2Server(tls: TlsFiles | undefined, http1: { IncomingMessage: unknown; ServerResponse: unknown }): H2Server {
  const common: ServerOptions = {
    settings: { maxConcurrentStreams: MAX_CONCURRENT_STREAMS },
    Http2ServerRequest: ArrivingH2Request,
    Http2ServerResponse: OwnedH2Response as unknown as typeof Http2ServerResponse,
  };
  if (tls === undefined) return createServer(common);
  const options: SecureServerOptions = {
    ...common,
    cert: tls.cert,
    key: tls.key,
    allowHTTP1: true,
    Http1IncomingMessage: http1.IncomingMessage as SecureServerOptions['Http1IncomingMessage'],
    Http1ServerResponse: http1.ServerResponse as SecureServerOptions['Http1ServerResponse'],
  };
  return createSecureServer(options);
}

/**
 * Bounds receiving an HTTP/2 request's body by `requestTimeoutMs` (see above); called for every
 * HTTP/2 request before it is handed on.
 */
export function boundH2Body(req: Http2ServerRequest, res: Http2ServerResponse, requestTimeoutMs: number, log: () => RequestLogger): void {
  const { stream } = req;
  if (stream.endAfterHeaders) return;
  const timer = setTimeout(() => {
    if (stream.destroyed || req.complete) return;
    if (!res.headersSent) answerTimedOut(req, res, log());
    stream.close(constants.NGHTTP2_NO_ERROR);
  }, requestTimeoutMs);
  timer.unref();
  const done = (): void => clearTimeout(timer);
  req.once('end', done);
  stream.once('close', done);
}

function answerTimedOut(req: Http2ServerRequest, res: Http2ServerResponse, log: RequestLogger): void {
  const started = performance.now();
  const id = requestIdOf(req as never);
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const body = JSON.stringify({
    ...problem(408, undefined, 'the request body did not arrive within the request time-out'),
    instance: q < 0 ? url : url.slice(0, q),
  });
  res.writeHead(408, { 'content-type': PROBLEM_CONTENT_TYPE, 'content-length': Buffer.byteLength(body), [REQUEST_ID_HEADER]: id });
  res.end(body);
  try {
    log(id, req.method ?? '', url, 408, performance.now() - started, null);
  } catch {
    // Logging never takes the server down.
  }
}
