/**
 * The one place the adapter writes problem details (SPEC.md §2.6, DECISIONS.md §3).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problem, type Problem } from '../problem/index.js';
import { logSent } from './note.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/** The request path without the query string: the `instance` of every problem. */
export function requestPath(request: FastifyRequest): string {
  const url = request.url;
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** A problem record with its `instance` filled in (the request path) unless it names one. */
export function withInstance<T extends { readonly instance?: unknown }>(body: T, request: FastifyRequest): T {
  return body.instance === undefined ? { ...body, instance: requestPath(request) } : body;
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, body: Problem, headers?: Record<string, string>): FastifyReply {
  const payload = withInstance(body, request);
  reply.code(payload.status).header(REQUEST_ID_HEADER, request.id).header('content-type', PROBLEM_CONTENT_TYPE);
  if (headers) for (const name in headers) reply.header(name, headers[name]);
  reply.send(JSON.stringify(payload));
  logSent(request, reply);
  return reply;
}

/** A problem of the server's own catalogue: title is the reason phrase unless given. */
export function sendStatusProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  detail?: string,
  extensions?: Record<string, unknown>,
  headers?: Record<string, string>,
): FastifyReply {
  const body: Problem = problem(status, undefined, detail);
  return sendProblem(request, reply, extensions ? { ...body, ...extensions } : body, headers);
}
