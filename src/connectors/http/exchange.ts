/**
 * One outbound HTTP exchange on an undici dispatcher, driver-free at its edges: a plain request in,
 * status, end-to-end headers and a bounded (or pullable) body out. The caller's AbortSignal and
 * `timeoutMs` abort it and undici destroys the socket, so the upstream sees the close at once.
 * Hop-by-hop fields, `host`, `content-length` and `expect` are not passed on; a 4xx/5xx is a response.
 */
import type { Dispatcher } from 'undici';
import { ConnectorCategory, ConnectorError, describeCause } from '../errors.js';
import { BodyTooLargeError, readBounded } from './body.js';
import { endToEnd, type HeaderValue } from './hop-by-hop.js';
import { badResponse, upstreamError, upstreamKey } from './errors.js';
import { UpstreamBody } from './stream.js';
import { endExchangeSpan, propagateTo, startExchangeSpan } from './trace.js';
import type { TraceSpan } from '../../tracing/index.js';

/** What a non-streaming exchange may read into memory unless told otherwise. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * Not passed on: `host` and `content-length` are computed from the URL and the body (a caller's value
 * could only be wrong); `expect` belongs to the exchange with the client (curl sends
 * `Expect: 100-continue` with larger bodies, which svc has already read) and undici refuses it.
 */
const COMPUTED: ReadonlySet<string> = new Set(['host', 'content-length', 'expect']);

export interface OutboundRequest {
  /** Upper-case (`GET`). */
  readonly method: string;
  /** Absolute `http:` or `https:` URL. */
  readonly url: string | URL;
  /** Any casing; hop-by-hop fields, `host` and `content-length` are dropped. */
  readonly headers?: Readonly<Record<string, HeaderValue | undefined>> | undefined;
  readonly body?: string | Uint8Array | null | undefined;
  /** Aborts the exchange (and destroys its connection). */
  readonly signal?: AbortSignal | undefined;
  /** Bound of the whole exchange, body included; for a stream, until the response headers. */
  readonly timeoutMs?: number | undefined;
  /** Bound of a buffered body; default DEFAULT_MAX_BODY_BYTES. Ignored by streams. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * A stream's read time-out: the longest wait for the next piece of its body once the reader asked
   * for it; past it the body fails (a `timeout` ConnectorError) and its connection is destroyed.
   * None when absent. Ignored by buffered exchanges, which `timeoutMs` bounds whole.
   */
  readonly readTimeoutMs?: number | undefined;
}

export interface OutboundResponse {
  readonly status: number;
  /** Lower-case names, hop-by-hop fields removed; repeated fields as lists. */
  readonly headers: Readonly<Record<string, HeaderValue>>;
  readonly body: Buffer;
}

export interface OutboundStreamResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, HeaderValue>>;
  /** Read it, or `dispose()` it: an unread body holds its connection until then. */
  readonly body: UpstreamBody;
}

/** Parses and checks the URL (a bad one is the caller's bug: a ConnectorError without category, a 500). */
export function targetOf(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    throw new ConnectorError(`invalid upstream URL ${JSON.stringify(String(url))}`, { connection: 'http' });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConnectorError(`upstream URL ${JSON.stringify(parsed.href)} is not http: or https:`, { connection: 'http' });
  }
  return parsed;
}

/** The exchange with its body read into memory (at most `maxBodyBytes`). */
export async function exchange(dispatcher: Dispatcher, target: URL, request: OutboundRequest): Promise<OutboundResponse> {
  const what = describe(request.method, target);
  const abort = watch(request, target.origin, what);
  // Tracing on: the exchange's client span, its context in `traceparent` (trace.ts).
  const span = startExchangeSpan(request.method, target);
  try {
    const response = await dispatcher.request(optionsOf(target, request, abort.signal, true, span));
    const contentLength = lengthOf(response.headers['content-length']);
    const body = await readBounded(response.body, request.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, contentLength);
    if (span !== undefined) endExchangeSpan(span, response.statusCode, undefined);
    return { status: response.statusCode, headers: endToEnd(response.headers), body };
  } catch (error) {
    const failure =
      error instanceof BodyTooLargeError ? badResponse(target.origin, what, error.message) : (abort.reason() ?? upstreamError(error, target.origin, what));
    if (span !== undefined) endExchangeSpan(span, undefined, failure);
    throw failure;
  } finally {
    abort.dispose();
  }
}

/**
 * The exchange up to its response headers; the body is handed over unread, as a pullable source.
 * The time-out stops at the headers (a stream lives as long as its consumer wants); the caller's
 * signal keeps watching until the body is disposed.
 */
export async function exchangeStream(dispatcher: Dispatcher, target: URL, request: OutboundRequest): Promise<OutboundStreamResponse> {
  const what = describe(request.method, target);
  const abort = watch(request, target.origin, what);
  let response: Dispatcher.ResponseData;
  // The span of a streamed exchange ends with the response's head; the stream's own span goes on.
  const span = startExchangeSpan(request.method, target);
  try {
    response = await dispatcher.request(optionsOf(target, request, abort.signal, false, span));
  } catch (error) {
    abort.dispose();
    const failure = abort.reason() ?? upstreamError(error, target.origin, what);
    if (span !== undefined) endExchangeSpan(span, undefined, failure);
    throw failure;
  }
  if (span !== undefined) endExchangeSpan(span, response.statusCode, undefined);
  abort.stopTimer();
  const { readTimeoutMs } = request;
  const idle =
    readTimeoutMs === undefined
      ? undefined
      : {
          ms: readTimeoutMs,
          error: () =>
            new ConnectorError(`upstream ${what()} sent nothing more of its body for ${readTimeoutMs} ms (read_timeout); the stream was cut`, {
              connection: upstreamKey(target.origin),
              category: ConnectorCategory.timeout,
            }),
        };
  const body = new UpstreamBody(response.body, abort.dispose, (error) => abort.reason() ?? upstreamError(error, target.origin, what), idle);
  return { status: response.statusCode, headers: endToEnd(response.headers), body };
}

/**
 * The exchange as error messages name it, built only when one is: method, origin and path, without
 * the query string or userinfo, where API keys and passwords travel.
 */
function describe(method: string, target: URL): () => string {
  return () => `${method} ${target.origin}${target.pathname}`;
}

function optionsOf(
  target: URL,
  request: OutboundRequest,
  signal: AbortSignal | undefined,
  buffered: boolean,
  span: TraceSpan | undefined,
): Dispatcher.RequestOptions {
  const headers = endToEnd(request.headers ?? {}, COMPUTED) as Record<string, string | string[]>;
  if (span !== undefined) propagateTo(span, headers);
  return {
    origin: target.origin,
    path: target.pathname + target.search,
    method: request.method as Dispatcher.HttpMethod,
    headers,
    body: request.body ?? null,
    ...(signal ? { signal } : {}),
    // A stream may be quiet for long (a feed between events); its consumer decides when it ends.
    ...(buffered ? {} : { bodyTimeout: 0 }),
  };
}

function lengthOf(value: HeaderValue | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

interface Watch {
  /** What undici gets; none when nobody can cancel the exchange. */
  readonly signal: AbortSignal | undefined;
  /** Why the exchange was aborted (time-out, cancellation), once it was. */
  reason(): ConnectorError | undefined;
  stopTimer(): void;
  dispose(): void;
}

/**
 * The caller's signal and the time-out as the one signal undici gets. Throws at once when the
 * caller's signal is already aborted, so no request is sent.
 */
function watch(request: OutboundRequest, origin: string, what: () => string): Watch {
  const { signal, timeoutMs } = request;
  const connection = upstreamKey(origin);
  const cancelled = (): ConnectorError =>
    new ConnectorError(`upstream ${what()} cancelled (${describeCause(signal!.reason)})`, {
      connection,
      category: ConnectorCategory.cancelled,
      cause: signal!.reason,
    });
  if (signal?.aborted) throw cancelled();
  if (timeoutMs === undefined || !Number.isFinite(timeoutMs)) {
    // Nothing to add to the caller's signal: undici gets it as it is (no controller, no listener per
    // exchange: the http step's time-out is the graph's, which aborts that very signal).
    const none = (): void => {};
    return { signal, reason: () => (signal?.aborted ? cancelled() : undefined), stopTimer: none, dispose: none };
  }
  const controller = new AbortController();
  let reason: ConnectorError | undefined;
  const fire = (error: ConnectorError): void => {
    if (reason !== undefined) return;
    reason = error;
    controller.abort(error);
  };
  const onAbort = (): void => fire(cancelled());
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined = setTimeout(
    () => fire(new ConnectorError(`upstream ${what()} timed out after ${timeoutMs} ms`, { connection, category: ConnectorCategory.timeout })),
    Math.max(0, timeoutMs),
  );
  const stopTimer = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return {
    signal: controller.signal,
    reason: () => reason,
    stopTimer,
    dispose() {
      stopTimer();
      signal?.removeEventListener('abort', onAbort);
    },
  };
}
