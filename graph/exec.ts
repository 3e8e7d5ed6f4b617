import { Observable, of } from 'rxjs';
import type { RunState } from './cancel.js';
import type { ExitOutcome, GraphScope, StreamOutcome } from './types.js';

/**
 * The internal protocol every compiled node follows.
 *
 * A node's exec returns a Signal either directly (it ran synchronously) or as an Observable that
 * emits exactly one Signal and completes (it went asynchronous). `undefined` means "carry on with
 * the next node"; an exit or stream outcome means "the run ends here". Failures are thrown
 * (synchronously) or sent on the error channel (asynchronously), always as StepError, so that
 * RxJS itself cancels siblings (forkJoin) and unwinds chains.
 *
 * Keeping the synchronous case free of Observables is the performance rule of ARCHITECTURE.md:
 * a pipeline of expressions and `respond` never allocates an Observable nor enters the event loop.
 * Internal Observables are always `rxjs.Observable` instances, so `instanceof` tells the cases apart
 * (an outcome is a plain object).
 */
export type Signal = ExitOutcome | StreamOutcome | undefined;

export type Eventual<T> = T | Observable<T>;

export type Exec<S extends GraphScope> = (scope: S, rt: RunState) => Eventual<Signal>;

export function isPending<T>(value: Eventual<T>): value is Observable<T> {
  return value instanceof Observable;
}

export function toObservable<T>(value: Eventual<T>): Observable<T> {
  return value instanceof Observable ? value : of(value);
}
