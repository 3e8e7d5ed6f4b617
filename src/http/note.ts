/**
 * Per-request notes for the log line (which step failed, the full error, why a run was cancelled), on
 * a request decoration that stays `null` until needed, and the one call that writes the line. The
 * code sending the response writes it (`writeResult`, `sendProblem`): an onResponse hook would cost a
 * hook run per request for nothing more.
 */
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestLogger, RequestNote } from './log.js';
import { requestIdOf } from './request-id.js';

/** The raw request with the time it arrived (performance.now() milliseconds). */
interface StampedMessage extends IncomingMessage {
  svcArrivedAt?: number;
}

/**
 * Fastify's `genReqId`, the first code to run for every request: stamps the arrival time that the log
 * line's `ms` counts from, for requests svc's server did not stamp (`inject` in tests). Fastify keeps
 * no start time with its logger off, and an onRequest hook for it would cost a hook run per request.
 */
export function arrive(req: IncomingMessage): string {
  const stamped = req as StampedMessage;
  if (stamped.svcArrivedAt === undefined) stamped.svcArrivedAt = performance.now();
  return requestIdOf(req);
}

function elapsedMs(request: FastifyRequest): number {
  const arrived = (request.raw as StampedMessage).svcArrivedAt;
  return arrived === undefined ? 0 : performance.now() - arrived;
}

declare module 'fastify' {
  interface FastifyRequest {
    svcNote: RequestNote | null;
  }
  interface FastifyInstance {
    svcLogLine: RequestLogger;
  }
}

/** Writes the request's log line; `status` overrides the reply's (499: the client went away). */
export function logSent(request: FastifyRequest, reply: FastifyReply, status: number = reply.statusCode): void {
  try {
    // Requests Fastify builds for routing errors (bad URL encoding) lack decorations: undefined.
    const line = request.server.svcLogLine;
    const note = request.svcNote ?? null;
    // The access log is off and this line would be a plain one: not even its time is taken.
    if (line.dropsPlainLines === true && status < 500 && note === null) return;
    // The request rides along for metrics (metrics.ts reads its route); the plain logger ignores it.
    line(request.id, request.method, request.url, status, elapsedMs(request), note, request);
  } catch {
    // Logging must never take the server down; the response is already on its way.
  }
}

export function noteOf(request: FastifyRequest): RequestNote {
  return (request.svcNote ??= {});
}
