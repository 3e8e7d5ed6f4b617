import { Observable } from 'rxjs/internal/Observable';
import type { Subscriber } from 'rxjs/internal/Subscriber';
import { Subscription } from 'rxjs/internal/Subscription';
import type { Lifetime } from './cancel.js';
import type { StreamEnd } from './stream.js';
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

/** `life`: the lifetime the node runs in (the run's, or the enclosing container body's). */
export type Exec<S extends GraphScope> = (scope: S, life: Lifetime) => Eventual<Signal>;

export function isPending<T>(value: Eventual<T>): value is Observable<T> {
  return value instanceof Observable;
}

/**
 * Hands `arg` to `step` and forwards what it gives to `subscriber`: a plain value is emitted and
 * completes, an Observable is subscribed (into `subscriptions`, so unsubscribing reaches it), a
 * throw becomes the error. The one way a continuation is attached; no `of()` for a plain value.
 */
export function proceed<A, R>(subscriber: Subscriber<R>, subscriptions: Subscription, step: (arg: A) => Eventual<R>, arg: A): void {
  let rest: Eventual<R>;
  try {
    rest = step(arg);
  } catch (e) {
    subscriber.error(e);
    return;
  }
  if (rest instanceof Observable) subscriptions.add(rest.subscribe(subscriber));
  else {
    subscriber.next(rest);
    subscriber.complete();
  }
}

/**
 * `mergeMap` written out for the engine's one-value Observables (one subscriber less per
 * asynchronous step): when `pending` emits, `next(value)` gives the continuation; `error`, when
 * given, maps a failure to a continuation too instead of passing it on. Completing without a value
 * breaks the protocol and is an error, never a silent gap.
 */
export function chain<T, R>(pending: Observable<T>, next: (value: T) => Eventual<R>, error?: (cause: unknown) => Eventual<R>): Observable<R> {
  return new Observable<R>((subscriber) => {
    const subscriptions = new Subscription();
    let got = false;
    subscriptions.add(
      pending.subscribe({
        next(value) {
          got = true;
          proceed(subscriber, subscriptions, next, value);
        },
        error(cause) {
          if (error === undefined) subscriber.error(cause);
          else proceed(subscriber, subscriptions, error, cause);
        },
        complete() {
          if (!got) subscriber.error(new Error('internal: a node completed without a signal'));
        },
      }),
    );
    return subscriptions;
  });
}

/**
 * The same stream outcome, calling `onEnd` once after the original's dispose when it is disposed:
 * how the run (run.ts) and a container the stream came out of (container.ts) keep their resources
 * until the stream is over. Later disposals are no-ops.
 */
export function onStreamEnd(outcome: StreamOutcome, onEnd: (end: StreamEnd, error: unknown) => void): StreamOutcome {
  let disposed = false;
  return {
    kind: 'stream',
    step: outcome.step,
    payload: outcome.payload,
    source: outcome.source,
    dispose(end, error) {
      if (disposed) return;
      disposed = true;
      try {
        outcome.dispose(end, error);
      } finally {
        onEnd(end, error);
      }
    },
  };
}
