import { Observable } from 'rxjs/internal/Observable';
import type { Unsubscribable } from 'rxjs/internal/types';
import { Lifetime, TORN_DOWN } from './cancel.js';
import { Category, GRAPH_INFO, RunAbortedError, StepError, categorize, messageOf } from './errors.js';
import { isPending, onStreamEnd, type Eventual, type Exec, type Signal } from './exec.js';
import type { Classifier } from './info.js';
import { DirectObservable, follow, type Receiver } from './direct.js';
import { claim, type Settled } from './once.js';
import type { DoneOutcome, ErrorOutcome, GraphScope, Outcome, StreamOutcome } from './types.js';

/** What a run needs from compilation: the root sequence and the graph-wide classifier. */
export interface Root<S extends GraphScope> {
  readonly exec: Exec<S>;
  readonly classify: Classifier | undefined;
}

const DONE: DoneOutcome = Object.freeze({ kind: 'done' });

/** Failures that are no node's StepError (engine invariants) name GRAPH_STEP_ID, classified by the graph. */
function errorOutcome(cause: unknown, classify: Classifier | undefined): ErrorOutcome {
  const error =
    cause instanceof StepError
      ? cause
      : new StepError(GRAPH_INFO, `graph run failed: ${messageOf(cause)}`, cause, categorize(cause, GRAPH_INFO, undefined, classify));
  return { kind: 'error', error };
}

function cancelledOutcome(reason: unknown): ErrorOutcome {
  return { kind: 'error', error: new StepError(GRAPH_INFO, 'the run was cancelled', reason, Category.cancelled) };
}

/** A failed run: what is still alive in it ends with the failure as its reason. */
function fail(cause: unknown, life: Lifetime, classify: Classifier | undefined): ErrorOutcome {
  const outcome = errorOutcome(cause, classify);
  life.close(outcome.error);
  return outcome;
}

/**
 * A stream outcome ends the run but not its life: the cursor or subscription behind the source was
 * opened by an earlier step with its signal. So the end of the run's lifetime moves to the outcome's
 * `dispose` (the source completed or failed, or the HTTP layer stopped reading because the client
 * went away), with the matching reason.
 */
function handOff(outcome: StreamOutcome, life: Lifetime): StreamOutcome {
  return onStreamEnd(outcome, (end, error) => life.close(end === 'complete' ? undefined : end === 'error' ? error : TORN_DOWN));
}

/** The single place a run's final signal becomes an outcome and the run is ended. */
function finish(signal: Signal, life: Lifetime): Outcome {
  if (signal === undefined) {
    life.close();
    return DONE;
  }
  if (signal.kind === 'stream') return handOff(signal, life);
  life.close();
  return signal;
}

/**
 * Runs synchronously as far as possible. A synchronous run allocates its Lifetime, one small
 * context per node and the outcome: no Observable, no Promise, no AbortController.
 */
export function start<S extends GraphScope>(root: Root<S>, scope: S, signal: AbortSignal | undefined): Outcome | Observable<Outcome> {
  if (signal?.aborted) return cancelledOutcome(signal.reason);
  const life = new Lifetime();
  let result: Eventual<Signal>;
  try {
    result = root.exec(scope, life);
  } catch (cause) {
    return fail(cause, life, root.classify);
  }
  if (!isPending(result)) return finish(result, life);
  return new RunOutcome(result, life, signal, root.classify);
}

/** The outcome of a run that went asynchronous; each receiver is followed by a Follower of its own. */
class RunOutcome extends DirectObservable<Outcome> {
  declare readonly pending: Observable<Signal>;
  declare readonly life: Lifetime;
  declare readonly external: AbortSignal | undefined;
  declare readonly classify: Classifier | undefined;

  constructor(pending: Observable<Signal>, life: Lifetime, external: AbortSignal | undefined, classify: Classifier | undefined) {
    super();
    this.pending = pending;
    this.life = life;
    this.external = external;
    this.classify = classify;
  }

  deliverTo(receiver: Receiver<Outcome>): Unsubscribable {
    return new Follower(receiver, this).start();
  }
}

/**
 * Follows the asynchronous remainder of a run for one subscriber: turns its single signal into the
 * outcome, listens to the external signal, and cancels the run if unsubscribed before the outcome.
 * A class (method shorthand, `this` as the abort listener) so that no closures are built per run;
 * settle-once (once.ts): the first of signal, failure, external abort and unsubscribe wins.
 */
class Follower implements Settled {
  declare closed: boolean;
  declare private subscription: Unsubscribable | undefined;
  declare private readonly subscriber: Receiver<Outcome>;
  /** The run followed: its pending remainder, lifetime, external signal and classifier. */
  declare private readonly run: RunOutcome;

  constructor(subscriber: Receiver<Outcome>, run: RunOutcome) {
    this.closed = false;
    this.subscription = undefined;
    this.subscriber = subscriber;
    this.run = run;
  }

  start(): this {
    const external = this.run.external;
    if (external !== undefined) {
      // Aborted during the synchronous part, when nobody listened yet.
      if (external.aborted) {
        this.handleEvent();
        return this;
      }
      external.addEventListener('abort', this, { once: true });
    }
    const subscription = follow(this.run.pending, this);
    if (this.closed) subscription.unsubscribe();
    else this.subscription = subscription;
    return this;
  }

  next(signal: Signal): void {
    if (claim(this)) this.deliver(finish(signal, this.run.life));
  }

  error(cause: unknown): void {
    if (claim(this)) this.deliver(fail(cause, this.run.life, this.run.classify));
  }

  complete(): void {
    if (claim(this)) this.deliver(fail(new Error('internal: a node completed without a signal'), this.run.life, this.run.classify));
  }

  /** The external AbortSignal fired: end the run first so steps see its reason, then tear down and report. */
  handleEvent(): void {
    if (!claim(this)) return;
    const reason: unknown = this.run.external?.reason;
    this.run.life.close(reason ?? new RunAbortedError());
    this.subscription?.unsubscribe();
    this.deliver(cancelledOutcome(reason));
  }

  private deliver(outcome: Outcome): void {
    this.run.external?.removeEventListener('abort', this);
    this.subscriber.next(outcome);
    this.subscriber.complete();
  }

  /** Teardown: unsubscribed before the outcome (client gone, request time-out) cancels everything. */
  unsubscribe(): void {
    this.run.external?.removeEventListener('abort', this);
    this.subscription?.unsubscribe();
    if (claim(this)) this.run.life.close(TORN_DOWN);
  }
}

export function run<S extends GraphScope>(root: Root<S>, scope: S, signal: AbortSignal | undefined): Observable<Outcome> {
  return new Observable<Outcome>((subscriber) => {
    const result = start(root, scope, signal);
    if (result instanceof Observable) return result.subscribe(subscriber);
    subscriber.next(result);
    subscriber.complete();
    return undefined;
  });
}

export function runPromise<S extends GraphScope>(root: Root<S>, scope: S, signal: AbortSignal | undefined): Promise<Outcome> {
  const result = start(root, scope, signal);
  if (!(result instanceof Observable)) return Promise.resolve(result);
  return new Promise<Outcome>((resolve) => {
    result.subscribe(resolve);
  });
}
