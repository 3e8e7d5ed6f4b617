/**
 * The guard of a guarded endpoint (src/auth), the route's own `onRequest` hook: before the body is
 * read or a step runs, so a refusal costs no upload and no work; a public endpoint has no hook. A
 * refusal is a 401 with one `WWW-Authenticate` per scheme, a 403 for a missing required claim, a 503
 * when a key set cannot be fetched; its log line names guards, reason and client, never credentials.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import { Refusal, type AuthContext, type EndpointGuard, type GuardInput } from '../auth/index.js';
import { logSent, noteOf } from './note.js';
import { sendStatusProblem } from './problems.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What `ctx.auth` holds: set by the guard hook, null on a public endpoint. */
    svcAuth: AuthContext | null;
  }
}

export function guardHook(guard: EndpointGuard): onRequestHookHandler {
  // One header line per challenge; none when only API keys guard the endpoint.
  const challenge = guard.challenges.length === 0 ? undefined : guard.challenges.length === 1 ? guard.challenges[0] : [...guard.challenges];
  return function checkGuard(request, reply, done) {
    // The request has what a guard reads (`headers`, the parsed `query`): passed as it is.
    const verdict = guard.check(request as unknown as GuardInput);
    if (!(verdict instanceof Promise)) {
      settle(guard, challenge, request, reply, done, verdict);
      return;
    }
    verdict.then(
      (v) => {
        // The client left while the token was being verified: nothing to answer, no step to run.
        if (request.raw.destroyed) logSent(request, reply, 499);
        else settle(guard, challenge, request, reply, done, v);
      },
      (error: unknown) => done(error as Error),
    );
  };
}

function settle(
  guard: EndpointGuard,
  challenge: string | string[] | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
  verdict: AuthContext | Refusal,
): void {
  if (!(verdict instanceof Refusal)) {
    request.svcAuth = verdict;
    done();
    return;
  }
  noteOf(request).auth = { guards: guard.guards, guard: verdict.guard, refused: verdict.reason, presented: verdict.presented, client: request.ip };
  if (verdict.status === 401 && challenge !== undefined) reply.header('www-authenticate', challenge);
  // Answered here, so Fastify goes no further (no body read, no handler); `done` is not called.
  sendStatusProblem(request, reply, verdict.status, verdict.detail);
}
