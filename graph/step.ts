import { Observable, asyncScheduler, isObservable, type Subscriber } from 'rxjs';
import { Category, StepError, StepTimeoutError, type ErrorWrapper } from './errors.js';
import { ExitSignal, exitOutcome } from './exit.js';
import type { Eventual, Exec, Signal } from './exec.js';
import type { GraphScope, RunContext, StepInfo, StepNodeDef } from './types.js';

/** Marks a value to be stored as is, even if it is a Promise or an Observable. */
export class Value<T = unknown> {
  constructor(readonly value: T) {}
}

/** Makes a step output a Promise or an Observable itself instead of awaiting it. */
export function asValue<T>(value: T): Value<T> {
  return new Value(value);
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

/** Maps an awaited value to the node's result; identity for callers that map themselves. */
export type Then<S, R> = (scope: S, value: unknown) => R;

function identity(_scope: unknown, value: unknown): unknown {
  return value;
}

/*
 * The asynchronous path is hand-written rather than `from(p).pipe(timeout, take(1), map)`: it is
 * on every I/O step, and each operator layer is a subscriber and a closure per request. Per-run
 * callbacks are anonymous arguments or method shorthand on purpose: named arrow constants created
 * per call get a `__name()` wrapper (Object.defineProperty) under tsx/esbuild `keepNames`, which
 * made a one-Promise run 7x slower in the benchmarks that run through tsx.
 */

/**
 * A Promise result. Its handlers are attached *at once*, not at subscription: the work has already
 * started, and if its continuation is abandoned (a sibling failed first) a later rejection must not
 * become an unhandled rejection that takes the process down.
 */
class PromiseResult<S, R> {
  private state: 0 | 1 | 2 | 3 = 0; // pending, value, failure, abandoned/timed out
  private settled: unknown = undefined;
  private receiver: Subscriber<R> | undefined = undefined;

  constructor(
    promise: PromiseLike<unknown>,
    private readonly info: StepInfo,
    private readonly wrap: ErrorWrapper,
    private readonly timeoutMs: number | undefined,
    private readonly scope: S,
    private readonly then: Then<S, R>,
  ) {
    promise.then(
      (value) => this.settle(1, value),
      (cause: unknown) => this.settle(2, cause),
    );
  }

  private settle(state: 1 | 2, settled: unknown): void {
    if (this.state !== 0) return;
    this.state = state;
    this.settled = settled;
    if (this.receiver !== undefined) this.deliver(this.receiver);
  }

  private deliver(subscriber: Subscriber<R>): void {
    this.receiver = undefined;
    if (this.state === 2) {
      subscriber.error(this.wrap(this.settled));
      return;
    }
    emit(subscriber, this.then, this.scope, this.settled);
  }

  observable(): Observable<R> {
    return new Observable<R>((subscriber) => {
      if (this.state === 1 || this.state === 2) {
        this.deliver(subscriber);
        return undefined;
      }
      this.receiver = subscriber;
      const timer =
        this.timeoutMs === undefined
          ? undefined
          : asyncScheduler.schedule(() => {
              if (this.state !== 0) return;
              this.state = 3;
              this.receiver = undefined;
              subscriber.error(new StepTimeoutError(this.info, this.timeoutMs!));
            }, this.timeoutMs);
      return () => {
        this.receiver = undefined;
        timer?.unsubscribe();
      };
    });
  }
}

/** Hands the awaited value to `then` and completes; a throw in `then` becomes the error. */
function emit<S, R>(subscriber: Subscriber<R>, then: Then<S, R>, scope: S, raw: unknown): void {
  let result: R;
  try {
    result = then(scope, raw instanceof Value ? raw.value : raw);
  } catch (e) {
    subscriber.error(e);
    return;
  }
  subscriber.next(result);
  subscriber.complete();
}

/**
 * An Observable result: the first value wins and the source is unsubscribed right after it (which
 * releases a cursor or a request at once); completing without a value is an 'empty' StepError,
 * never a silent gap; `timeoutMs` bounds the wait for the first value.
 */
function awaitObservable<S, R>(
  info: StepInfo,
  source: Observable<unknown>,
  wrap: ErrorWrapper,
  timeoutMs: number | undefined,
  scope: S,
  then: Then<S, R>,
): Observable<R> {
  return new Observable<R>((subscriber) => {
    let done = false;
    const timer =
      timeoutMs === undefined
        ? undefined
        : asyncScheduler.schedule(() => {
            if (done) return;
            done = true;
            subscriber.error(new StepTimeoutError(info, timeoutMs));
          }, timeoutMs);
    const subscription = source.subscribe({
      next(value) {
        if (done) return;
        done = true;
        emit(subscriber, then, scope, value);
      },
      error(cause) {
        if (done) return;
        done = true;
        subscriber.error(wrap(cause));
      },
      complete() {
        if (done) return;
        done = true;
        subscriber.error(new StepError(info, `step "${info.id}" (${info.kind}) completed without a value`, undefined, Category.empty));
      },
    });
    // Completing or failing runs this teardown (at once, even when it happened during subscribe).
    if (timer === undefined) return subscription;
    return () => {
      timer.unsubscribe();
      subscription.unsubscribe();
    };
  });
}

/**
 * If `result` is asynchronous (Promise or Observable), the Observable of `then(value)`; otherwise
 * undefined and the caller takes the value synchronously.
 */
export function awaitResult<S, R = unknown>(
  info: StepInfo,
  result: unknown,
  wrap: ErrorWrapper,
  timeoutMs: number | undefined,
  scope?: S,
  then?: Then<S, R>,
): Observable<R> | undefined {
  if (result === null || typeof result !== 'object') return undefined;
  const map = (then ?? identity) as Then<S, R>;
  if (result instanceof Observable || isObservable(result)) return awaitObservable(info, result, wrap, timeoutMs, scope as S, map);
  if (isThenable(result)) return new PromiseResult(result, info, wrap, timeoutMs, scope as S, map).observable();
  return undefined;
}

/**
 * Calls `run` and hands its value to `then`, synchronously when the value is synchronous. Shared
 * by steps, exits and sinks. `then` receives values unwrapped from `asValue()`.
 */
export function invoke<S extends GraphScope, R>(
  info: StepInfo,
  run: (scope: S, ctx: RunContext) => unknown,
  scope: S,
  rt: RunContext,
  wrap: ErrorWrapper,
  timeoutMs: number | undefined,
  then: Then<S, R>,
): Eventual<R> {
  let result: unknown;
  try {
    result = run(scope, rt);
  } catch (cause) {
    throw wrap(cause);
  }
  if (result instanceof Value) return then(scope, result.value);
  const pending = awaitResult(info, result, wrap, timeoutMs, scope, then);
  if (pending === undefined) return then(scope, result);
  return pending;
}

/** A plain step: run, store the output under its name, carry on (or exit when asked to). */
export function compileStep<S extends GraphScope>(def: StepNodeDef<S>, info: StepInfo, wrap: ErrorWrapper): Exec<S> {
  const { name, run, timeout } = def;
  const store = (scope: S, value: unknown): Signal => {
    if (value instanceof ExitSignal) return exitOutcome(info, value.payload);
    scope.steps[name] = value;
    return undefined;
  };
  return (scope, rt) => invoke(info, run, scope, rt, wrap, timeout, store);
}

/**
 * A terminal node (exit, sink) behind its optional condition: the condition is evaluated
 * synchronously; when false the node is skipped (undefined: the sequence carries on), otherwise the
 * node's run is invoked and its result becomes the terminal outcome.
 */
export function guardedInvoke<S extends GraphScope, R extends Signal>(
  condition: ((scope: S) => boolean) | undefined,
  info: StepInfo,
  run: (scope: S, ctx: RunContext) => unknown,
  wrap: ErrorWrapper,
  timeout: number | undefined,
  toOutcome: Then<S, R>,
): Exec<S> {
  return (scope, rt) => {
    if (condition !== undefined) {
      let pass: boolean;
      try {
        pass = condition(scope);
      } catch (cause) {
        throw wrap(cause);
      }
      if (!pass) return undefined;
    }
    return invoke(info, run, scope, rt, wrap, timeout, toOutcome);
  };
}
