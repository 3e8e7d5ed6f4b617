/**
 * Per-request notes for the log line: which endpoint, which step failed, and the full error.
 * Kept on a request decoration declared once (`null` until needed), so the common path allocates nothing.
 */
import type { FastifyRequest } from 'fastify';
import type { RequestNote } from './log.js';

declare module 'fastify' {
  interface FastifyRequest {
    svcNote: RequestNote | null;
  }
}

export function noteOf(request: FastifyRequest): RequestNote {
  return (request.svcNote ??= {});
}
