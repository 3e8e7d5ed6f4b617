import { Observable } from 'rxjs/internal/Observable';
import type { Subscriber } from 'rxjs/internal/Subscriber';
import type { Subscription } from 'rxjs/internal/Subscription';
import type { Unsubscribable } from 'rxjs/internal/types';
import type { Lifetime } from './cancel.js';
import { DirectObservable, follow, type Receiver } from './direct.js';
import type { StreamEnd } from './stream.js';
import type { ExitOutcome, GraphScope, StreamOutcome } from './types.js';

/**
 * The internal protocol every compiled node follows: its exec returns a Signal directly (it ran
 * synchronously) or as an Observable emitting exactly one Signal (it went asynchronous). `undefined`
 * carries on with the next node; an exit or stream outcome ends the run. Failures are thrown or sent
 * on the error channel, always as StepError. The synchronous case allocates no Observable (the
 * performance rule: expressions and `respond` never enter the event loop), so `instanceof
 * Observable` tells the cases apart.
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
  return new Chain(pending, next, error);
}

/** A chain: one object per run, no closures; each receiver gets a ChainLink of its own. */
class Chain<T, R> extends DirectObservable<R> {
  declare readonly pending: Observable<T>;
  declare readonly onValue: (value: T) => Eventual<R>;
  declare readonly onError: ((cause: unknown) => Eventual<R>) | undefined;

  constructor(pending: Observable<T>, onValue: (value: T) => Eventual<R>, onError: ((cause: unknown) => Eventual<R>) | undefined) {
    super();
    this.pending = pending;
    this.onValue = onValue;
    this.onError = onError;
  }

  deliverTo(receiver: Receiver<R>): Unsubscribable {
    return new ChainLink(receiver, this).start();
  }
}

/**
 * One receiver's connection through a chain: it receives the pending value, hands it to the
 * continuation and connects the receiver to what that gives; unsubscribing stops both.
 */
class ChainLink<T, R> implements Receiver<T>, Unsubscribable {
  declare private readonly out: Receiver<R>;
  declare private readonly chain: Chain<T, R>;
  declare private source: Unsubscribable | undefined;
  declare private rest: Unsubscribable | undefined;
  declare private got: boolean;
  declare private stopped: boolean;

  constructor(out: Receiver<R>, chain: Chain<T, R>) {
    this.out = out;
    this.chain = chain;
    this.source = undefined;
    this.rest = undefined;
    this.got = false;
    this.stopped = false;
  }

  start(): this {
    const source = follow(this.chain.pending, this);
    // Stopped while the pending value was delivered during `follow`: nothing to keep.
    if (this.stopped) source.unsubscribe();
    else this.source = source;
    return this;
  }

  // A stopped link ignores what its source may still send, as an unsubscribed RxJS subscriber does.
  next(value: T): void {
    if (this.stopped) return;
    this.got = true;
    this.continueWith(this.chain.onValue, value);
  }

  error(cause: unknown): void {
    if (this.stopped) return;
    const onError = this.chain.onError;
    if (onError === undefined) this.out.error(cause);
    else this.continueWith(onError, cause);
  }

  complete(): void {
    if (!this.stopped && !this.got) this.out.error(new Error('internal: a node completed without a signal'));
  }

  unsubscribe(): void {
    this.stopped = true;
    this.source?.unsubscribe();
    this.rest?.unsubscribe();
  }

  /** As `proceed`: a plain value is delivered and completes, an Observable is followed, a throw is the error. */
  private continueWith<A>(step: (arg: A) => Eventual<R>, arg: A): void {
    let rest: Eventual<R>;
    try {
      rest = step(arg);
    } catch (e) {
      this.out.error(e);
      return;
    }
    if (rest instanceof Observable) {
      const connection = follow(rest, this.out);
      if (this.stopped) connection.unsubscribe();
      else this.rest = connection;
    } else {
      this.out.next(rest);
      this.out.complete();
    }
  }
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
