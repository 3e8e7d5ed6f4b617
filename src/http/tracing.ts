/**
 * The HTTP edge of tracing (docs/operations.md "Tracing", src/tracing): a server span per request from
 * Fastify's `genReqId` (the first code to see every request) to where its log line is written (note.ts
 * `logSent`), a stream's span from head to end, and the log line's `trace_id` and `span_id`. Chosen when
 * the server is built (server.ts): without tracing nothing here runs. Probe spans are never ended, so
 * never exported: probes every few seconds would bury the service's traces.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { FastifyRequest } from 'fastify';
import { activeTracer, type TraceSpan } from '../tracing/index.js';
import type { RequestLogger, RequestNote } from './log.js';
import { arrive } from './note.js';

/** The raw request with its spans, set only when tracing is on (no field on the class otherwise). */
interface TracedMessage extends IncomingMessage {
  svcSpan?: TraceSpan;
  svcStreamSpan?: TraceSpan;
}

/** `genReqId` with tracing: `arrive` (note.ts), then the request's server span. */
export function arriveTraced(req: IncomingMessage): string {
  const id = arrive(req);
  const tracer = activeTracer();
  if (tracer !== undefined) {
    try {
      const url = req.url ?? '/';
      const query = url.indexOf('?');
      // The path without the query: API keys travel in query strings (log.ts redacts them too).
      const path = query < 0 ? url : url.slice(0, query);
      const scheme = (req.socket as TLSSocket | undefined)?.encrypted === true ? 'https' : 'http';
      (req as TracedMessage).svcSpan = tracer.request(req.method ?? 'GET', scheme, path, req.headers);
    } catch {
      // A span is never worth a request.
    }
  }
  return id;
}

/** The server span of a request, for its handler to hand to the steps (handler.ts). */
export function requestSpanOf(request: FastifyRequest): TraceSpan | undefined {
  return (request.raw as TracedMessage).svcSpan;
}

/** A stream's span, from its head (stream-reply.ts) to its log line. */
export function startStreamSpan(request: FastifyRequest, format: string): void {
  const raw = request.raw as TracedMessage;
  const tracer = activeTracer();
  if (tracer === undefined || raw.svcSpan === undefined) return;
  try {
    raw.svcStreamSpan = tracer.stream(raw.svcSpan, format);
  } catch {
    // As above.
  }
}

/** How a stream ended (log.ts StreamNote `ended`), where the stream's source is at fault. */
const FAILED_ENDS: ReadonlySet<string> = new Set(['source failed', 'source lost']);

/**
 * The request log wrapped so that each logged request ends its spans and its line carries the trace.
 * `routes` maps the router's paths (`/users/:id`) to the manifest's (`/users/{id}`).
 */
export function tracedRequests(log: RequestLogger, routes: ReadonlyMap<string, string>): RequestLogger {
  const traced: RequestLogger = (reqId, method, url, status, ms, note, request) => {
    const raw = request?.raw as TracedMessage | undefined;
    const span = raw?.svcSpan;
    if (span === undefined) {
      log(reqId, method, url, status, ms, note, request);
      return;
    }
    raw!.svcSpan = undefined;
    let lineNote: RequestNote | null = note;
    try {
      endStream(raw!, note);
      // A failure outside any step (the step's own span has it otherwise) is the request's.
      if (note?.error !== undefined && note.step === undefined) span.fail(note.error);
      const tracer = activeTracer();
      if (tracer !== undefined) tracer.answered(span, status, routeOf(request!, routes));
      else span.end();
      lineNote = { ...note, trace: { traceId: span.traceId, spanId: span.spanId } };
    } catch {
      // A span never costs a request its log line.
    }
    log(reqId, method, url, status, ms, lineNote, request);
  };
  // Never `dropsPlainLines`, even when `log` drops them: every request's spans end here.
  return traced;
}

function endStream(raw: TracedMessage, note: RequestNote | null): void {
  const span = raw.svcStreamSpan;
  if (span === undefined) return;
  raw.svcStreamSpan = undefined;
  const stream = note?.stream;
  if (stream !== undefined) {
    span.set('svc.stream.items', stream.items);
    span.set('svc.stream.bytes', stream.bytes);
    span.set('svc.stream.ended', stream.ended);
    if (FAILED_ENDS.has(stream.ended)) span.fail(note?.error ?? new Error(`the stream's source ended it: ${stream.ended}`), stream.ended);
  }
  span.end();
}

function routeOf(request: FastifyRequest, routes: ReadonlyMap<string, string>): string | undefined {
  let url: string | undefined;
  try {
    url = request.routeOptions.url;
  } catch {
    // Requests Fastify builds for routing errors have no route context.
  }
  if (url === undefined) return undefined;
  return routes.get(url) ?? url;
}
