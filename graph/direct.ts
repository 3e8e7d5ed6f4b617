import { Observable } from 'rxjs/internal/Observable';
import type { Subscriber } from 'rxjs/internal/Subscriber';
import type { Unsubscribable } from 'rxjs/internal/types';

/*
 * The engine's own one-value Observables are connected to its own receivers directly: RxJS's
 * `subscribe` wraps each observer in a SafeSubscriber, a ConsumerObserver and an error-context
 * closure, garbage on every asynchronous request (bench/cache README "The engine's asynchronous path
 * without RxJS's subscriber wrappers"), and guards nothing here: the producers settle once (once.ts)
 * and the receivers never throw. Outside the engine they are ordinary Observables: `subscribe`
 * reaches `deliverTo` through RxJS's `_subscribe` hook, with RxJS's guarantees.
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
