/**
 * Writes what a pipeline decided: usually one `JSON.stringify` (none for a body the respond step
 * serialized) and one write, through Fastify's `send` so that `onSend` hooks see every answer (issue
 * 34; bench/health README "Public APIs first"). Every body is held to MAX_RESPONSE_CHARS
 * (src/expr/json-size.ts), measured before it is written: over it, a 500.
 */
import { Category } from '../../graph/index.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_RESPONSE_CHARS, ResponseTooLarge, responseJson } from '../expr/index.js';
import { PROBLEM_CONTENT_TYPE, problem } from '../problem/index.js';
import type { FailureResult, ResponseResult } from '../steps/index.js';
import { writeRepresented } from './compress-reply.js';
import { joinVary } from './cors.js';
import { failureStatus } from './failure.js';
import { logSent, noteOf } from './note.js';
import { sendProblem, withInstance } from './problems.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** 204 and 304 carry no body (RFC 9110 §15.3.5, §15.4.5): left to Fastify's `send` (which drops a 204's content headers) and Node (which writes neither body). */
function hasBody(status: number): boolean {
  return status !== 204 && status !== 304;
}

export function writeResult(request: FastifyRequest, reply: FastifyReply, result: ResponseResult | FailureResult): void {
  if (result.kind === 'failure') {
    writeFailure(request, reply, result);
    return;
  }
  try {
    writeResponse(request, reply, result);
  } catch (error) {
    // A body JSON cannot encode (a cycle): still a problem answer, never a crash. The
    // asynchronous path calls this from a promise callback, where a throw would be unhandled.
    if (!reply.sent) {
      // The failure's problem goes out without the headers the refused answer had set.
      if (result.headers !== undefined) for (const name in result.headers) reply.removeHeader(name);
      writeFailure(request, reply, { kind: 'failure', category: Category.internal, error });
      return;
    }
    noteOf(request).error = error;
  }
  logSent(request, reply);
}

/** The problem of DECISIONS.md §3; `sendProblem` writes the log line with the full error. */
function writeFailure(request: FastifyRequest, reply: FastifyReply, result: FailureResult): void {
  const note = noteOf(request);
  note.error = result.error;
  if (result.step !== undefined) note.step = result.step;
  const body = problem(failureStatus(result.category));
  // The step is named so an operator can find the log line; the cause stays in the log.
  sendProblem(request, reply, result.step === undefined ? body : { ...body, step: result.step });
}

function writeResponse(request: FastifyRequest, reply: FastifyReply, result: ResponseResult): void {
  const headers = result.headers;
  const body = result.body;
  if (result.status !== 200) reply.code(result.status);
  let contentType: string | undefined;
  if (headers !== undefined) {
    for (const name in headers) {
      const value = headers[name]!;
      const lower = name.toLowerCase();
      if (lower === 'content-type') contentType = value;
      // Joined with the `Vary: Origin` CORS may have set, never replacing it (cors.ts).
      else if (lower === 'vary') reply.header(name, joinVary(reply.getHeader('vary'), value));
      else reply.header(name, value);
    }
  }
  if (body === null || body === undefined) {
    if (contentType !== undefined) reply.header('content-type', contentType);
    reply.send();
    return;
  }
  if (result.problem) {
    reply.header('content-type', contentType ?? PROBLEM_CONTENT_TYPE).send(responseJson(withInstance(body as Record<string, unknown>, request)));
    return;
  }
  // An endpoint with compression, ETags or Cache-Control (compress-reply.ts; never a direct route).
  const representation = request.svcRepresentation;
  if (representation !== null && hasBody(result.status)) {
    const text = typeof body === 'string' && contentType !== undefined ? body : (result.json ?? responseJson(body));
    if (text.length > MAX_RESPONSE_CHARS) throw new ResponseTooLarge();
    writeRepresented(request, reply, result.status, contentType ?? JSON_TYPE, text, representation);
    return;
  }
  // A string with a declared media type is sent as is (text, HTML, CSV); everything else is JSON.
  if (typeof body === 'string' && contentType !== undefined) {
    if (body.length > MAX_RESPONSE_CHARS) throw new ResponseTooLarge();
    reply.header('content-type', contentType).send(body);
    return;
  }
  // `type` stores the header as is; `header` would lower-case the constant name on every request.
  // Exact: Starlark ints beyond 2^53 arrive as BigInt and are sent as the JSON numbers they are.
  reply.type(contentType ?? JSON_TYPE).send(result.json ?? responseJson(body));
}
