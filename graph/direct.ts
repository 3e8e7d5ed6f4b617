import { Observable } from 'rxjs/internal/Observable';
import type { Subscriber } from 'rxjs/internal/Subscriber';
import type { Unsubscribable } from 'rxjs/internal/types';

/*
 * The engine's own one-value Observables (a step's awaited result, a sequence's continuation, a
 * parallel group, a run's outcome) are connected to the engine's own receivers directly.
 *
 * RxJS's `subscribe` wraps every observer that is not already a Subscriber in a SafeSubscriber and a
 * ConsumerObserver, and runs the connection inside an error-context closure; an asynchronous request
 * went through three such subscriptions, about 1.2 KB of its 15 KB of garbage on bench/cache (the
 * sampling heap profiler, collected objects included). The engine's producers already settle once
 * (once.ts) and its receivers never throw, so inside the engine that machinery guards nothing.
 *
 * Outside the engine (a test, any RxJS operator, `run()`'s callers) these are ordinary Observables:
 * `subscribe` reaches `deliverTo` through RxJS's `_subscribe` hook (defined once, in DirectObservable,
 * as RxJS's own Subject defines it), with RxJS's guarantees around it.
 */

/** What receives a one-value Observable's outcome: one `next` then `complete`, or one `error`. */
export interface Receiver<T> {
  next(value: T): void;
  error(cause: unknown): void;
  complete(): void;
}

/** An Observable of the engine that can deliver to a receiver directly. */
export abstract class DirectObservable<T> extends Observable<T> {
  /** Starts delivering to `receiver` (possibly before returning); the result stops it. */
  abstract deliverTo(receiver: Receiver<T>): Unsubscribable;

  /** RxJS's hook for every other subscriber. */
  _subscribe(subscriber: Subscriber<T>): Unsubscribable {
    return this.deliverTo(subscriber);
  }
}

/** The teardown of a connection that has nothing left to stop. */
export const NOTHING: Unsubscribable = Object.freeze({ unsubscribe() {} });

/** Connects `receiver` to `source`: directly to the engine's own Observables, by `subscribe` to any other. */
export function follow<T>(source: Observable<T>, receiver: Receiver<T>): Unsubscribable {
  return source instanceof DirectObservable ? source.deliverTo(receiver) : source.subscribe(receiver);
}
