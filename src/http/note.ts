/**
 * Per-request notes for the log line (which step failed, the full error, why a run was cancelled), and
 * the one call that writes the line once the response is sent.
 *
 * Notes live on a request decoration declared once (`null` until needed), so the common path allocates
 * nothing. The line is written by the code that sends the response (every response goes through
 * `writeResult` or `sendProblem`) rather than by an onResponse hook, which would cost a hook run per
 * request for nothing more.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestLogger, RequestNote } from './log.js';

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
    request.server.svcLogLine(request.id, request.method, request.url, status, reply.elapsedTime, request.svcNote ?? null);
  } catch {
    // Logging must never take the server down; the response is already on its way.
  }
}

export function noteOf(request: FastifyRequest): RequestNote {
  return (request.svcNote ??= {});
}
