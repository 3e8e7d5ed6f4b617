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
import type { ServerResponse } from 'node:http';
import { Category } from '../../graph/index.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EXPR_BUDGET, type ExprBudget, newExprBudget } from '../expr/index.js';
import type { CompiledEndpoint, EndpointResult, PendingResult, RequestContext, ResultReceiver } from '../steps/index.js';
import { decodeBody } from './body.js';
import { notFoundHandler } from './errors.js';
import type { Representation } from './compress-reply.js';
import { applyCors, type CorsPolicy } from './cors.js';
import { type Deadline, Deadlines } from './deadlines.js';
import { logSent, noteOf } from './note.js';
import { sendProblem, sendStatusProblem } from './problems.js';
import { writeResult } from './reply.js';
import { cutReason } from './shutdown-cut.js';
import { writeStream } from './stream-reply.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import type { TextInput } from '../schema/index.js';
import type { RequestValidator } from './validation.js';
import type { OwnedResponse } from './node-server.js';
import { REQUEST_SPAN, type TraceSpan } from '../tracing/index.js';
import { requestSpanOf } from './tracing.js';

export interface HandlerOptions {
  readonly endpoint: CompiledEndpoint;
  /** `undefined` when the endpoint declares nothing to check (validation.ts). */
  readonly validate: RequestValidator | undefined;
  readonly jsonBody: boolean;
  /** The name of a trailing `{name...}` parameter (Fastify calls it `*`). */
  readonly catchAll?: string;
  readonly requestTimeoutMs: number;
  /** The endpoint's CORS policy when the route has no hook to set its headers (cors.ts). */
  readonly cors?: CorsPolicy;
  /** Compression, ETag, Cache-Control (compress-reply.ts). */
  readonly representation?: Representation;
  /** Tracing is on: the request's server span goes on `ctx` for the step spans (tracing.ts). */
  readonly traced?: boolean;
}

type Params = Record<string, string | undefined>;

/** `ctx` with the size budget every expression of the request draws from (src/expr/budget.ts). */
type BudgetedContext = RequestContext & { [EXPR_BUDGET]: ExprBudget };

/** With tracing on, `ctx` also holds the request's server span (src/steps/trace.ts reads it). */
type TracedContext = BudgetedContext & { [REQUEST_SPAN]?: TraceSpan | undefined };

export function makeHandler(options: HandlerOptions): (request: FastifyRequest, reply: FastifyReply) => void {
  const { endpoint, validate, jsonBody, catchAll, requestTimeoutMs, cors, representation } = options;
  const traced = options.traced === true;
  const deadlines = new Deadlines(requestTimeoutMs);
  /** The path's `{name}` parameters (not a trailing `{name...}`), which a request may not leave empty: found once. */
  const segmentParams = [...endpoint.path.matchAll(/\{([^}.]+)\}/g)].map((m) => m[1]!);

  return function handle(request, reply) {
    // Set first, for every answer (all written from the reply: reply.ts, streams), so that no path can
    // leave the id out.
    reply.header(REQUEST_ID_HEADER, request.id);
    if (representation !== undefined) request.svcRepresentation = representation;
    // On the reply, which every way of answering below writes from (cors.ts).
    if (cors !== undefined) applyCors(cors, request, reply);

    const decoded = decodeBody(request.body, request.headers['content-type'], jsonBody, request);
    if (!decoded.ok) {
      sendProblem(request, reply, decoded.problem);
      return;
    }

    let params = request.params as Params;
    // `/items/` matches `/items/{id}` with an empty id (find-my-way lets a parameter be empty): that
    // is no item's address, so the answer is the 404 of a path no endpoint serves, not a 422 for a
    // malformed id nor a lookup of "". A trailing `{rest...}` may be empty (Fastify's `*`).
    for (const name of segmentParams) {
      if (params[name] === '') {
        notFoundHandler(request, reply);
        return;
      }
    }
    if (catchAll !== undefined) {
      const { '*': rest, ...named } = params;
      params = { ...named, [catchAll]: rest ?? '' };
    }

    let values: RequestContext['request'];
    if (validate === undefined) {
      // Nothing declared, nothing to check: `ctx.request` is built from the request at once.
      values = { method: request.method, path: params, query: request.query as TextInput, headers: request.headers, body: decoded.body };
    } else {
      const checked = validate(
        { path: params as Record<string, string>, query: request.query as TextInput, headers: request.headers, body: decoded.body },
        request,
      );
      if (!checked.ok) {
        sendProblem(request, reply, checked.problem);
        return;
      }
      const input = checked.value;
      values = { method: request.method, path: input.path, query: input.query, headers: input.headers, body: input.body };
    }

    const ctx = {
      request: values,
      timestamp_epoch: Math.floor(Date.now() / 1000),
      request_id: request.id,
      // Set by the endpoint's guard hook (guard.ts), which ran before the body was read; else null.
      auth: request.svcAuth,
    } as BudgetedContext;
    // Stored after the literal: a computed key inside it made every request's literal convert the
    // key (ToName) and define it through the runtime, measured in CPU profiles of bench/health.
    ctx[EXPR_BUDGET] = newExprBudget();
    if (traced) (ctx as TracedContext)[REQUEST_SPAN] = requestSpanOf(request);

    let outcome: EndpointResult | PendingResult;
    try {
      outcome = endpoint.run(ctx);
    } catch (error) {
      // A compiled graph reports failures as results; a throw here is a bug in svc, still never a crash.
      outcome = { kind: 'failure', category: Category.internal, error };
    }
    if (outcome.kind === 'stream') writeStream(request, reply, outcome, requestTimeoutMs);
    else if (outcome.kind !== 'pending') writeResult(request, reply, outcome);
    else new PendingReply(request, reply, outcome, requestTimeoutMs, deadlines).start();
  };
}

/**
 * The response's pending run, for the module-level `close` listener (no closure per request). A field
 * that `OwnedResponse` declares, so that setting it adds no property to the response: a symbol key
 * added per request made that store megamorphic in profiles of bench/cache.
 */
type WaitingResponse = ServerResponse & Pick<OwnedResponse, 'svcWaiting'>;

/**
 * Waits for one asynchronous run: the first of its result, the request time-out and the client's
 * departure answers (settle-once). One object per request: the run delivers into `settle`, the
 * endpoint's time-out queue holds it (deadlines.ts), and the `close` listener finds it on the response.
 */
class PendingReply implements ResultReceiver, Deadline {
  declare closed: boolean;
  declare private readonly request: FastifyRequest;
  declare private readonly reply: FastifyReply;
  declare private readonly pending: PendingResult;
  declare private readonly timeoutMs: number;
  declare private readonly deadlines: Deadlines;
  declare deadlineAt: number;
  declare newer: Deadline | undefined;
  declare older: Deadline | undefined;

  constructor(request: FastifyRequest, reply: FastifyReply, pending: PendingResult, timeoutMs: number, deadlines: Deadlines) {
    this.closed = false;
    this.request = request;
    this.reply = reply;
    this.pending = pending;
    this.timeoutMs = timeoutMs;
    this.deadlines = deadlines;
    this.deadlineAt = Number.NaN;
    this.newer = undefined;
    this.older = undefined;
  }

  start(): void {
    const res = this.reply.raw as WaitingResponse;
    this.deadlines.add(this);
    res.svcWaiting = this;
    res.on('close', clientClosed);
    this.pending.follow(this);
  }

  settle(result: EndpointResult): void {
    if (result.kind === 'stream') {
      const left = this.deadlineAt - performance.now();
      // Timed out or abandoned by the client just as the stream arrived: never read, still released.
      if (!this.finish()) result.dispose('cancel');
      // The stream's first item is still bounded by what is left of the request time-out (read
      // before `finish` took the run out of the queue).
      else writeStream(this.request, this.reply, result, Math.max(1, left));
    } else if (this.finish()) writeResult(this.request, this.reply, result);
  }

  timeOut(): void {
    if (!this.finish()) return;
    this.pending.cancel();
    noteOf(this.request).cancelled = 'timeout';
    sendStatusProblem(this.request, this.reply, 504, `the request took longer than ${this.timeoutMs} ms`);
  }

  /**
   * `close` before the response finished: the client went away, or the server cut the connection at
   * a shutdown or reload (shutdown-cut.ts), so the steps are torn down at once.
   */
  clientClosed(): void {
    if (this.reply.raw.writableFinished || !this.finish()) return;
    this.pending.cancel();
    const cut = cutReason(this.reply.raw);
    noteOf(this.request).cancelled = cut ?? 'client closed';
    // Nothing is sent. 499 (nginx's "client closed request") marks a client that left; a request the
    // server gave up on is a 503, what it would have answered had it been able to say so.
    logSent(this.request, this.reply, cut === undefined ? 499 : 503);
  }

  private finish(): boolean {
    if (this.closed) return false;
    this.closed = true;
    this.deadlines.remove(this);
    const res = this.reply.raw as WaitingResponse;
    res.off('close', clientClosed);
    res.svcWaiting = undefined;
    return true;
  }
}

function clientClosed(this: WaitingResponse): void {
  this.svcWaiting?.clientClosed();
}
