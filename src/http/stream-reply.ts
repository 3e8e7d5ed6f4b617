/**
 * Writes a stream result (SPEC.md §4.3): the response head, then the source pulled through its
 * encoder by a Pump (src/stream), with backpressure, heartbeats and a polite end on shutdown.
 *
 * The head goes at once for SSE and live sources (EventSource needs it to open; heartbeats keep
 * proxies from timing out), otherwise after the first item, so a source failing at once is still an
 * ordinary problem with its status and the 504 time-out applies until then; after the first byte a
 * failure ends the stream in its format's way (pump.ts). The result's `dispose` is called exactly
 * once (it releases the cursor, subscription or upstream body); one log line per stream.
 */
import { isHttp2Response } from './h2-server.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { problem } from '../problem/index.js';
import type { StreamResult } from '../steps/index.js';
import { Pump, type PumpResult } from '../stream/index.js';
import { representStreamHead, type StreamRepresentation, streamOut, streamRepresentation } from './compress-stream.js';
import { directWrites } from './chunk-writes.js';
import { joinVary } from './cors.js';
import { failureStatus } from './failure.js';
import { logSent, noteOf } from './note.js';
import { sendProblem, sendStatusProblem, withInstance } from './problems.js';
import { cutReason } from './shutdown-cut.js';
import { activeTracer } from '../tracing/index.js';
import { startStreamSpan } from './tracing.js';

/** The open streams of a server, stopped politely when it shuts down (lifecycle.ts). */
export class OpenStreams {
  private readonly pumps = new Set<Pump>();
  private closing = false;
  /** Every stream being written, finite ones included (the metrics' open-streams gauge). */
  private open = 0;

  get size(): number {
    return this.open;
  }

  /** Called once per stream as it starts; `delete` once as it ends. */
  add(pump: Pump, stopOnShutdown: boolean): void {
    this.open++;
    if (!stopOnShutdown) return;
    if (this.closing) pump.stop();
    else this.pumps.add(pump);
  }

  delete(pump: Pump): void {
    this.open--;
    this.pumps.delete(pump);
  }

  /** Ends every live and SSE stream now; finite streams run on until the shutdown time-out. */
  stopAll(): void {
    this.closing = true;
    for (const pump of this.pumps) pump.stop();
    this.pumps.clear();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    svcStreams: OpenStreams;
  }
}

export function writeStream(request: FastifyRequest, reply: FastifyReply, result: StreamResult, timeoutMs: number): void {
  // Compression and Cache-Control of the endpoint (compress-stream.ts); undefined for most.
  const rep = streamRepresentation(request, result);
  if (request.method === 'HEAD') {
    // The head a GET would send, and nothing is pulled: a subscription would otherwise never end.
    commit(reply, result, rep);
    reply.raw.end();
    result.dispose('cancel');
    logSent(request, reply, 200);
    return;
  }
  // With tracing on, the stream's span lasts until its log line (tracing.ts).
  if (activeTracer() !== undefined) startStreamSpan(request, result.encoding.format);
  const pump = new Pump({
    source: result.source,
    live: result.live,
    encoding: result.encoding,
    out: streamOut(rep, reply.raw) ?? reply.raw,
    problemOf: (error) => withInstance({ ...problem(failureStatus(result.categoryOf(error))), step: result.step }, request),
    abort: () => cutShort(reply),
    // A compressed body is corked at the compressor, whose output leaves as it is flushed.
    // An HTTP/2 stream's socket is its session's, shared with other streams: never corked from here.
    corkable: rep?.coding === undefined && !isHttp2Response(reply.raw) ? (reply.raw.socket ?? undefined) : undefined,
    direct: rep?.coding === undefined && !isHttp2Response(reply.raw) ? () => directWrites(reply.raw) : undefined,
  });
  if (result.live || result.encoding.format === 'sse') {
    commit(reply, result, rep);
    follow(request, reply, result, pump, undefined);
    return;
  }
  awaitFirstItem(request, reply, result, pump, timeoutMs, rep);
}

/**
 * Pulls the first item before the head is sent, racing the request time-out and the client leaving.
 * A synchronous source (a computed list) answers at once, with no timer or listener.
 */
function awaitFirstItem(
  request: FastifyRequest,
  reply: FastifyReply,
  result: StreamResult,
  pump: Pump,
  timeoutMs: number,
  rep: StreamRepresentation | undefined,
): void {
  let first: IteratorResult<unknown> | Promise<IteratorResult<unknown>>;
  try {
    first = pump.pullFirst();
  } catch (error) {
    failBeforeHead(request, reply, result, pump, error);
    return;
  }
  if (!(first instanceof Promise)) {
    commit(reply, result, rep);
    follow(request, reply, result, pump, first);
    return;
  }
  let settled = false;
  const res = reply.raw;
  const settle = (): boolean => {
    if (settled) return false;
    settled = true;
    clearTimeout(timer);
    res.off('close', onClose);
    return true;
  };
  const timer = setTimeout(() => {
    if (!settle()) return;
    pump.abandon();
    result.dispose('cancel');
    noteOf(request).cancelled = 'timeout';
    sendStatusProblem(request, reply, 504, `the stream's first item took longer than ${timeoutMs} ms`);
  }, timeoutMs);
  const onClose = (): void => {
    if (!settle()) return;
    pump.abandon();
    result.dispose('cancel');
    // The client left, or the server cut the connection (shutdown-cut.ts; see handler.ts clientClosed).
    const cut = cutReason(res);
    noteOf(request).cancelled = cut ?? 'client closed';
    logSent(request, reply, cut === undefined ? 499 : 503);
  };
  res.on('close', onClose);
  first.then(
    (step) => {
      if (!settle()) return;
      commit(reply, result, rep);
      follow(request, reply, result, pump, step);
    },
    (error: unknown) => {
      if (settle()) failBeforeHead(request, reply, result, pump, error);
    },
  );
}

/** The source failed before anything was sent: an ordinary problem answer, with the failure's status. */
function failBeforeHead(request: FastifyRequest, reply: FastifyReply, result: StreamResult, pump: Pump, error: unknown): void {
  pump.abandon();
  result.dispose('error', error);
  const note = noteOf(request);
  note.error = error;
  note.step = result.step;
  sendProblem(request, reply, { ...problem(failureStatus(result.categoryOf(error))), step: result.step });
}

/**
 * Ends the connection after the bytes already written, without the chunked encoding's last chunk:
 * the client sees the transfer cut short (curl: "transfer closed with outstanding read data").
 */
function cutShort(reply: FastifyReply): void {
  const socket = reply.raw.socket;
  // HTTP/2: the stream alone is reset (RST_STREAM); the session serves its other streams on.
  if (socket === null || isHttp2Response(reply.raw)) reply.raw.destroy();
  else socket.end();
}

/** Sends the head: the format's headers, the step's, and the request id Fastify would have added. */
function commit(reply: FastifyReply, result: StreamResult, rep: StreamRepresentation | undefined): void {
  // From here on the response is ours, not Fastify's: it sends nothing and runs no onSend hook.
  reply.hijack();
  // Names are merged case-insensitively (lower case, as Fastify keeps them): a step's
  // "Content-Type" replaces the format's, never goes out beside it.
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
  headers['content-type'] = result.encoding.contentType;
  for (const [name, value] of Object.entries(result.encoding.headers)) headers[name.toLowerCase()] = value;
  if (result.headers !== undefined) {
    for (const [name, value] of Object.entries(result.headers)) {
      const lower = name.toLowerCase();
      // A step's `Vary` joins the `Vary: Origin` CORS may have set (cors.ts).
      headers[lower] = lower === 'vary' ? joinVary(headers.vary, value) : value;
    }
  }
  if (rep !== undefined) representStreamHead(headers, rep, reply);
  reply.raw.writeHead(200, headers);
  // The head leaves now, not with the first item: an SSE client opens on it.
  reply.raw.flushHeaders();
}

function follow(request: FastifyRequest, reply: FastifyReply, result: StreamResult, pump: Pump, first: IteratorResult<unknown> | undefined): void {
  const streams = request.server.svcStreams;
  streams.add(pump, result.live || result.encoding.format === 'sse');
  pump.run(first).then(
    (ended) => {
      streams.delete(pump);
      result.dispose(ended.end, ended.error);
      logStream(request, reply, result, ended);
    },
    (error: unknown) => {
      // Pump.run never rejects; if it did, the stream is still released and the failure logged.
      streams.delete(pump);
      result.dispose('error', error);
      reply.raw.destroy();
      logStream(request, reply, result, { end: 'error', why: 'source failed', error, items: 0, bytes: 0 });
    },
  );
}

function logStream(request: FastifyRequest, reply: FastifyReply, result: StreamResult, ended: PumpResult): void {
  const note = noteOf(request);
  // A stream the server cut at a shutdown or reload saw only its socket close: it did not end by the client.
  const cut = ended.why === 'client closed' ? cutReason(reply.raw) : undefined;
  note.stream = { format: result.encoding.format, items: ended.items, bytes: ended.bytes, ended: cut === undefined ? ended.why : 'server shutting down' };
  if (cut !== undefined) note.cancelled = cut;
  else if (ended.why === 'client too slow') {
    note.cancelled = ended.why;
    // Which bound it passed, on a warning: an operator sees each client cut off, once.
    note.warning = ended.error instanceof Error ? ended.error.message : String(ended.error);
  } else if (ended.why === 'source lost') {
    // Not this request's failure: the lost subscription is warned of once, by the connector.
  } else if (ended.end === 'error') {
    note.step = result.step;
    note.error = ended.error;
  }
  logSent(request, reply, 200);
}
