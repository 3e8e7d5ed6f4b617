import { Observable } from 'rxjs/internal/Observable';
import { asyncScheduler } from 'rxjs/internal/scheduler/async';
import type { Subscription } from 'rxjs/internal/Subscription';
import type { Unsubscribable } from 'rxjs/internal/types';
import { isObservable } from 'rxjs/internal/util/isObservable';
import { TORN_DOWN, type StepContext } from './cancel.js';
import { Category, StepError, StepTimeoutError, type Site } from './errors.js';
import { NOTHING, DirectObservable, type Receiver } from './direct.js';
import { claim, type Settled } from './once.js';
import { Value, isThenable } from './result.js';

/*
 * How a node waits for an asynchronous result (a step's run, a container's enter or leave).
 * Hand-written rather than `from(p).pipe(timeout, take(1), map)`: it is on every I/O step, and each
 * operator is a subscriber and a closure per request. The time-out callback is a module-level function
 * given its object as state: arrows made per call are wrapped by tsx `keepNames`, several times slower
 * (graph/README.md "Measurements").
 *
 * Both classes settle once (once.ts). On a failure or a time-out the node's context is closed (signal
 * aborted, releases run) *before* the error is sent on, so a container rolling back finds the step over.
 */

/** Maps an awaited value to the node's result; identity for callers that map themselves. */
export type Then<S, R> = (scope: S, value: unknown) => R;

export function identity(_scope: unknown, value: unknown): unknown {
  return value;
}

/** The scheduler's callback for both classes; `state` is the object whose time ran out. */
function timeOut(this: unknown, state?: { timeOut(): void }): void {
  state!.timeOut();
}

/**
 * Hands the awaited value to `then` and completes; a throw in `then` (a sink's invalid result)
 * ends the node as a failure.
 */
function emit<S, R>(subscriber: Receiver<R>, ctx: StepContext, then: Then<S, R>, scope: S, raw: unknown): void {
  let result: R;
  try {
    result = then(scope, raw instanceof Value ? raw.value : raw);
  } catch (e) {
    ctx.close(e);
    subscriber.error(e);
    return;
  }
  subscriber.next(result);
  subscriber.complete();
}

/**
 * A Promise result. Its handlers are attached *at once*, not at subscription: the work has already
 * started, and if its continuation is abandoned (a sibling failed first) a later rejection must not
 * become an unhandled rejection that takes the process down. A value that arrives after the node
 * was abandoned or timed out is handed to `late` (a container gives a late client straight back).
 */
export class PromiseResult<S, R> extends DirectObservable<R> implements Settled {
  declare closed: boolean;
  declare private state: 0 | 1 | 2; // the promise: pending, fulfilled (value), rejected (StepError)
  declare private settled: unknown;
  declare private receiver: Receiver<R> | undefined;
  declare private timer: Subscription | undefined;
  declare private readonly site: Site;
  declare private readonly ctx: StepContext;
  declare private readonly timeoutMs: number | undefined;
  declare private readonly scope: S;
  // Not `then`: an object with a `then` method is taken for a promise by `await` and Promise.resolve.
  declare private readonly map: Then<S, R>;
  declare private readonly late: ((value: unknown) => void) | undefined;

  constructor(
    promise: PromiseLike<unknown>,
    site: Site,
    ctx: StepContext,
    timeoutMs: number | undefined,
    scope: S,
    then: Then<S, R>,
    late?: (value: unknown) => void,
  ) {
    super();
    this.closed = false;
    this.state = 0;
    this.settled = undefined;
    this.receiver = undefined;
    this.timer = undefined;
    this.site = site;
    this.ctx = ctx;
    this.timeoutMs = timeoutMs;
    this.scope = scope;
    this.map = then;
    this.late = late;
    promise.then(
      (value) => this.fulfilled(value),
      (cause: unknown) => this.rejected(cause),
    );
  }

  private fulfilled(value: unknown): void {
    if (this.closed) {
      this.late?.(value instanceof Value ? value.value : value);
      return;
    }
    this.state = 1;
    this.settled = value;
    if (this.receiver !== undefined) this.deliver(this.receiver);
  }

  private rejected(cause: unknown): void {
    if (!claim(this)) return;
    // The node failed: it ends now, even if nobody subscribed yet (its continuation may never be).
    const error = this.site.wrap(cause);
    this.ctx.close(error);
    this.state = 2;
    this.settled = error;
    if (this.receiver !== undefined) this.deliver(this.receiver);
  }

  private deliver(subscriber: Receiver<R>): void {
    this.receiver = undefined;
    this.timer?.unsubscribe();
    if (this.state === 2) subscriber.error(this.settled);
    else if (claim(this)) emit(subscriber, this.ctx, this.map, this.scope, this.settled);
  }

  timeOut(): void {
    if (!claim(this)) return;
    const error = new StepTimeoutError(this.site.info, this.timeoutMs!);
    this.ctx.close(error);
    const receiver = this.receiver;
    this.receiver = undefined;
    receiver?.error(error);
  }

  /** Teardown before the result: the node ends as torn down (or as the lifetime says). */
  abandon(reason: unknown = TORN_DOWN): void {
    this.receiver = undefined;
    this.timer?.unsubscribe();
    if (!claim(this)) return;
    this.ctx.close(reason);
    if (this.state === 1) this.late?.(this.settled instanceof Value ? this.settled.value : this.settled);
  }

  /** The subscriber's teardown (unsubscribe, or the end of delivery). */
  unsubscribe(): void {
    this.abandon();
  }

  /** The result as the Observable of the node's result: itself (the engine follows it directly, direct.ts). */
  observable(): Observable<R> {
    return this;
  }

  deliverTo(receiver: Receiver<R>): Unsubscribable {
    if (this.state !== 0) {
      this.deliver(receiver);
      return NOTHING;
    }
    this.receiver = receiver;
    if (this.timeoutMs !== undefined) this.timer = asyncScheduler.schedule(timeOut, this.timeoutMs, this);
    return this;
  }
}

/**
 * An Observable result: the first value wins and the source is unsubscribed at once (which releases
 * a cursor or a request before the run goes on); completing without a value is an 'empty'
 * StepError, never a silent gap; `timeoutMs` bounds the wait for the first value.
 */
class ObservableResult<S, R> implements Settled {
  declare closed: boolean;
  declare private source: Subscription | undefined;
  declare private timer: Subscription | undefined;
  declare private readonly subscriber: Receiver<R>;
  /** What this wait is for: the step's Observable and its node, shared by every receiver. */
  declare private readonly awaited: AwaitedObservable<S, R>;

  constructor(subscriber: Receiver<R>, awaited: AwaitedObservable<S, R>) {
    this.closed = false;
    this.source = undefined;
    this.timer = undefined;
    this.subscriber = subscriber;
    this.awaited = awaited;
  }

  start(): this {
    const { timeoutMs, step } = this.awaited;
    if (timeoutMs !== undefined) this.timer = asyncScheduler.schedule(timeOut, timeoutMs, this);
    const subscription = step.subscribe(this);
    // It may have ended during subscribe (a synchronous source), before `source` could be kept.
    if (this.closed) subscription.unsubscribe();
    else this.source = subscription;
    return this;
  }

  next(value: unknown): void {
    if (!claim(this)) return;
    this.stop();
    const { ctx, map, scope } = this.awaited;
    emit(this.subscriber, ctx, map, scope, value);
  }

  error(cause: unknown): void {
    if (claim(this)) this.fail(this.awaited.site.wrap(cause));
  }

  complete(): void {
    if (!claim(this)) return;
    const { info } = this.awaited.site;
    this.fail(new StepError(info, `step "${info.id}" (${info.kind}) completed without a value`, undefined, Category.empty));
  }

  timeOut(): void {
    if (claim(this)) this.fail(new StepTimeoutError(this.awaited.site.info, this.awaited.timeoutMs!));
  }

  /** The subscriber's teardown: unsubscribed before the first value, the node is torn down. */
  unsubscribe(): void {
    this.stop();
    if (claim(this)) this.awaited.ctx.close(TORN_DOWN);
  }

  private fail(error: StepError): void {
    this.stop();
    this.awaited.ctx.close(error);
    this.subscriber.error(error);
  }

  private stop(): void {
    this.timer?.unsubscribe();
    const source = this.source;
    this.source = undefined;
    source?.unsubscribe();
  }
}

/**
 * A step's Observable result, awaited: each receiver gets an ObservableResult of its own. Not
 * `source` (RxJS's Observable has a field of that name) nor `then` (an object with a `then` method
 * is taken for a promise).
 */
class AwaitedObservable<S, R> extends DirectObservable<R> {
  declare readonly step: Observable<unknown>;
  declare readonly site: Site;
  declare readonly ctx: StepContext;
  declare readonly timeoutMs: number | undefined;
  declare readonly scope: S;
  declare readonly map: Then<S, R>;

  constructor(step: Observable<unknown>, site: Site, ctx: StepContext, timeoutMs: number | undefined, scope: S, map: Then<S, R>) {
    super();
    this.step = step;
    this.site = site;
    this.ctx = ctx;
    this.timeoutMs = timeoutMs;
    this.scope = scope;
    this.map = map;
  }

  deliverTo(receiver: Receiver<R>): Unsubscribable {
    return new ObservableResult(receiver, this).start();
  }
}

/**
 * If `result` is asynchronous (Promise or Observable), the Observable of `then(value)`; otherwise
 * undefined and the caller takes the value synchronously (and owns `ctx`'s failure paths).
 */
export function awaitResult<S, R = unknown>(
  site: Site,
  ctx: StepContext,
  result: unknown,
  timeoutMs: number | undefined,
  scope?: S,
  then?: Then<S, R>,
): Observable<R> | undefined {
  if (result === null || typeof result !== 'object') return undefined;
  const map = (then ?? identity) as Then<S, R>;
  if (result instanceof Observable || isObservable(result)) return new AwaitedObservable(result as Observable<unknown>, site, ctx, timeoutMs, scope as S, map);
  if (isThenable(result)) return new PromiseResult(result, site, ctx, timeoutMs, scope as S, map).observable();
  return undefined;
}
