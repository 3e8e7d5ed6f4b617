/**
 * Fastify's own failures as problem details: never Fastify's default error shape, never internals.
 *
 * Errors Fastify raises before the handler (body too large, malformed Content-Length, bad URL encoding,
 * a malformed HTTP request) are mapped onto DECISIONS.md §3; anything unexpected is a 500 whose detail
 * stays in the log.
 */
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problem } from '../problem/index.js';
import { applyRouteCors } from './cors.js';
import { noteOf } from './note.js';
import { sendStatusProblem } from './problems.js';

/** Client errors whose Fastify message is safe and useful to show. */
const CLIENT_DETAIL: Readonly<Record<string, string>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'request body is larger than the server accepts',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request body size did not match Content-Length',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported Content-Type',
  FST_ERR_BAD_URL: 'the request path is not valid URL encoding',
  FST_ERR_MAX_PARAM_LENGTH: 'a path parameter is too long',
};

/** A socket answered by clientErrorHandler: the status it was sent. */
type AnsweredSocket = Socket & { svcAnswered?: number };

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // A failure before the handler (body too large, unsupported media type) still carries the route's CORS headers.
  applyRouteCors(request, reply);
  // The request was answered on its socket already (a 408 for a body that came too slowly); this is
  // the body read failing as that socket closes. The log line says what the client got.
  const answered = (request.raw.socket as AnsweredSocket | null)?.svcAnswered;
  if (answered !== undefined) {
    sendStatusProblem(request, reply, answered);
    return;
  }
  const status = error.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const detail = (error.code && CLIENT_DETAIL[error.code]) ?? undefined;
    sendStatusProblem(request, reply, status, detail);
    return;
  }
  noteOf(request).error = error;
  sendStatusProblem(request, reply, 500);
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  sendStatusProblem(request, reply, 404, 'no endpoint matches the request path');
}

/** Errors Fastify raises while routing (bad URL encoding, over-long parameters). */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  errorHandler(error.statusCode === undefined ? Object.assign(error, { statusCode: 400 }) : error, request, reply);
}

/** How long a rejected connection may take to read its answer before it is closed anyway. */
const LINGER_MS = 1000;

/**
 * A request Node's parser rejected (malformed HTTP), or one not received within the request time-out
 * (node-server.ts): answered when the socket can still take an answer, then closed. Closed in any
 * case, even if the client keeps sending: a body trickled a byte at a time must not keep the
 * connection past its 408.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A response already started on this connection (a GET answered while its body still trickles in):
  // nothing more can be written on it.
  const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (!socket.writable || started) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  (socket as AnsweredSocket).svcAnswered = status;
  const body = JSON.stringify(problem(status));
  socket.end(
    `HTTP/1.1 ${status} ${problem(status).title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  // end() closes only our side; a client that goes on sending would keep the socket open.
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
