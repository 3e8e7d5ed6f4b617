import { Observable, from, isObservable, map, timeout as rxTimeout, throwError } from 'rxjs';
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

function isThenable(value: object): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown }).then === 'function';
}

/**
 * If `result` is asynchronous (Promise or Observable), the Observable of its single value: the first
 * value wins and the source is unsubscribed after it, completion without a value is an 'empty'
 * StepError, a failure is wrapped naming the step, and `timeoutMs` bounds the wait. Otherwise
 * undefined: the caller takes the value synchronously.
 */
export function awaitResult(
  info: StepInfo,
  result: unknown,
  wrap: ErrorWrapper,
  timeoutMs: number | undefined,
): Observable<unknown> | undefined {
  if (result === null || typeof result !== 'object') return undefined;
  let source: Observable<unknown>;
  if (result instanceof Observable || isObservable(result)) source = result;
  else if (isThenable(result)) source = from(result);
  else return undefined;
  if (timeoutMs !== undefined) {
    source = source.pipe(rxTimeout({ first: timeoutMs, with: () => throwError(() => new StepTimeoutError(info, timeoutMs)) }));
  }
  return firstValue(info, source, wrap);
}

/** Single-value view of `source`, written by hand: it is on every asynchronous step's path. */
function firstValue(info: StepInfo, source: Observable<unknown>, wrap: ErrorWrapper): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    let done = false;
    const subscription = source.subscribe({
      next(value) {
        if (done) return;
        done = true;
        subscriber.next(value);
        subscriber.complete();
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
    // Completing runs this teardown (at once, even when the value came during subscribe), so the
    // source (a cursor, a request) is released as soon as its value is in.
    return subscription;
  });
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
  then: (scope: S, value: unknown) => R,
): Eventual<R> {
  let result: unknown;
  try {
    result = run(scope, rt);
  } catch (cause) {
    throw wrap(cause);
  }
  const pending = awaitResult(info, result, wrap, timeoutMs);
  if (pending === undefined) return then(scope, result instanceof Value ? result.value : result);
  // A throw inside `then` becomes an error notification via `map`.
  return pending.pipe(map((value) => then(scope, value instanceof Value ? value.value : value)));
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
