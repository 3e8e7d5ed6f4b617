/**
 * The route handler of one endpoint: decode the body, validate, build `ctx`, run the compiled graph,
 * write the outcome.
 *
 * The synchronous path (every step synchronous, the usual case for expression-only endpoints) allocates
 * no promise, timer or listener. Only a run that enters the event loop gets the request time-out (504,
 * and the graph is cancelled so its steps are torn down) and a client-disconnect watch (the graph is
 * cancelled too).
 */
import { performance } from 'node:perf_hooks';
import { Category } from '../../graph/index.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EXPR_BUDGET, type ExprBudget, newExprBudget } from '../expr/index.js';
import type { CompiledEndpoint, EndpointResult, PendingResult, RequestContext } from '../steps/index.js';
import { decodeBody } from './body.js';
import { logSent, noteOf } from './note.js';
import { sendProblem, sendStatusProblem } from './problems.js';
import { writeResult } from './reply.js';
import { writeStream } from './stream-reply.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import type { TextInput } from '../schema/index.js';
import type { RequestValidator } from './validation.js';

export interface HandlerOptions {
  readonly endpoint: CompiledEndpoint;
  readonly validate: RequestValidator;
  readonly jsonBody: boolean;
  /** The name of a trailing `{name...}` parameter (Fastify calls it `*`). */
  readonly catchAll?: string;
  readonly requestTimeoutMs: number;
}

type Params = Record<string, string | undefined>;

/** `ctx` with the size budget every expression of the request draws from (src/expr/budget.ts). */
type BudgetedContext = RequestContext & { readonly [EXPR_BUDGET]: ExprBudget };

export function makeHandler(options: HandlerOptions): (request: FastifyRequest, reply: FastifyReply) => void {
  const { endpoint, validate, jsonBody, catchAll, requestTimeoutMs } = options;

  return function handle(request, reply) {
    reply.header(REQUEST_ID_HEADER, request.id);

    const decoded = decodeBody(request.body, request.headers['content-type'], jsonBody, request);
    if (!decoded.ok) {
      sendProblem(request, reply, decoded.problem);
      return;
    }

    let params = request.params as Params;
    if (catchAll !== undefined) {
      const { '*': rest, ...named } = params;
      params = { ...named, [catchAll]: rest ?? '' };
    }

    const checked = validate(
      { path: params as Record<string, string>, query: request.query as TextInput, headers: request.headers, body: decoded.body },
      request,
    );
    if (!checked.ok) {
      sendProblem(request, reply, checked.problem);
      return;
    }

    const input = checked.value;
    const ctx: BudgetedContext = {
      request: { method: request.method, path: input.path, query: input.query, headers: input.headers, body: input.body },
      timestamp_epoch: Math.floor(Date.now() / 1000),
      request_id: request.id,
      // Set by the endpoint's guard hook (guard.ts), which ran before the body was read; else null.
      auth: request.svcAuth,
      [EXPR_BUDGET]: newExprBudget(),
    };

    let outcome: EndpointResult | PendingResult;
    try {
      outcome = endpoint.run(ctx);
    } catch (error) {
      // A compiled graph reports failures as results; a throw here is a bug in svc, still never a crash.
      outcome = { kind: 'failure', category: Category.internal, error };
    }
    if (outcome.kind === 'stream') writeStream(request, reply, outcome, requestTimeoutMs);
    else if (outcome.kind !== 'pending') writeResult(request, reply, outcome);
    else awaitPending(request, reply, outcome, requestTimeoutMs);
  };
}

function awaitPending(request: FastifyRequest, reply: FastifyReply, pending: PendingResult, timeoutMs: number): void {
  let settled = false;
  const res = reply.raw;
  const started = performance.now();

  const finish = (): boolean => {
    if (settled) return false;
    settled = true;
    clearTimeout(timer);
    res.off('close', onClose);
    return true;
  };

  const timer = setTimeout(() => {
    if (!finish()) return;
    pending.cancel();
    noteOf(request).cancelled = 'timeout';
    sendStatusProblem(request, reply, 504, `the request took longer than ${timeoutMs} ms`);
  }, timeoutMs);

  // `close` before the response finished: the client went away, so the steps are torn down at once.
  const onClose = (): void => {
    if (res.writableFinished || !finish()) return;
    pending.cancel();
    noteOf(request).cancelled = 'client closed';
    // Nothing is sent; 499 (nginx's "client closed request") marks the line.
    logSent(request, reply, 499);
  };
  res.on('close', onClose);

  pending.result.then(
    (result) => {
      if (result.kind !== 'stream') {
        if (finish()) writeResult(request, reply, result);
      } else if (finish()) {
        // The stream's first item is still bounded by what is left of the request time-out.
        writeStream(request, reply, result, Math.max(1, timeoutMs - (performance.now() - started)));
      } else {
        // Timed out or abandoned by the client just as the stream arrived: never read, still released.
        result.dispose('cancel');
      }
    },
    (error: unknown) => {
      if (finish()) writeResult(request, reply, { kind: 'failure', category: Category.internal, error });
    },
  );
}
