import { Observable, type Subscriber, type Unsubscribable } from 'rxjs';
import { RunState } from './cancel.js';
import { Category, GRAPH_INFO, RunAbortedError, StepError, messageOf } from './errors.js';
import { isPending, onStreamEnd, type Eventual, type Exec, type Signal } from './exec.js';
import type { DoneOutcome, ErrorOutcome, GraphScope, Outcome, StreamOutcome } from './types.js';

const DONE: DoneOutcome = Object.freeze({ kind: 'done' });

function errorOutcome(cause: unknown): ErrorOutcome {
  const error =
    cause instanceof StepError
      ? cause
      : new StepError(GRAPH_INFO, `graph run failed: ${messageOf(cause)}`, cause, Category.internal);
  return { kind: 'error', error };
}

function cancelledOutcome(reason: unknown): ErrorOutcome {
  return { kind: 'error', error: new StepError(GRAPH_INFO, 'the run was cancelled', reason, Category.cancelled) };
}

/**
 * A stream outcome ends the run but not its life: the cursor or subscription behind the source was
 * opened with the run's signal. So the run's abort moves to the teardown of the source's
 * subscription (completion, error, or the HTTP layer unsubscribing when the client goes away).
 */
function handOff(outcome: StreamOutcome, rt: RunState): StreamOutcome {
  return onStreamEnd(outcome, () => rt.abort());
}

/** The single place a run's final signal becomes an outcome and the run is ended. */
function finish(signal: Signal, rt: RunState): Outcome {
  if (signal === undefined) {
    rt.abort();
    return DONE;
  }
  if (signal.kind === 'stream') return handOff(signal, rt);
  rt.abort();
  return signal;
}

/**
 * Runs synchronously as far as possible. A synchronous run allocates the RunState and the outcome,
 * nothing else: no Observable, no Promise, no AbortController.
 */
export function start<S extends GraphScope>(root: Exec<S>, scope: S, signal: AbortSignal | undefined): Outcome | Observable<Outcome> {
  if (signal?.aborted) return cancelledOutcome(signal.reason);
  const rt = new RunState(signal);
  let result: Eventual<Signal>;
  try {
    result = root(scope, rt);
  } catch (cause) {
    rt.abort();
    return errorOutcome(cause);
  }
  if (!isPending(result)) return finish(result, rt);
  return follow(result, rt, signal);
}

/**
 * Follows the asynchronous remainder of a run for one subscriber: turns its single signal into the
 * outcome, listens to the external signal, and cancels the run if unsubscribed before the outcome.
 * A class (method shorthand, `this` as the abort listener) so that no closures are built per run.
 */
class Follower {
  private settled = false;
  private subscription: Unsubscribable | undefined = undefined;

  constructor(
    private readonly subscriber: Subscriber<Outcome>,
    private readonly rt: RunState,
    private readonly external: AbortSignal | undefined,
  ) {}

  start(pending: Observable<Signal>): this {
    this.external?.addEventListener('abort', this, { once: true });
    const subscription = pending.subscribe(this);
    if (this.settled) subscription.unsubscribe();
    else this.subscription = subscription;
    return this;
  }

  next(signal: Signal): void {
    if (!this.settled) this.settle(finish(signal, this.rt));
  }

  error(cause: unknown): void {
    if (this.settled) return;
    this.rt.abort();
    this.settle(errorOutcome(cause));
  }

  complete(): void {
    if (this.settled) return;
    this.rt.abort();
    this.settle(errorOutcome(new Error('internal: a node completed without a signal')));
  }

  /** The external AbortSignal fired: abort first so steps see its reason, then tear down and report. */
  handleEvent(): void {
    if (this.settled) return;
    const reason: unknown = this.external?.reason;
    this.rt.abort(reason ?? new RunAbortedError());
    this.subscription?.unsubscribe();
    this.settle(cancelledOutcome(reason));
  }

  private settle(outcome: Outcome): void {
    this.settled = true;
    this.external?.removeEventListener('abort', this);
    this.subscriber.next(outcome);
    this.subscriber.complete();
  }

  /** Teardown: unsubscribed before the outcome (client gone, request time-out) cancels everything. */
  unsubscribe(): void {
    this.external?.removeEventListener('abort', this);
    this.subscription?.unsubscribe();
    if (!this.settled) {
      this.settled = true;
      this.rt.abort();
    }
  }
}

function follow(pending: Observable<Signal>, rt: RunState, signal: AbortSignal | undefined): Observable<Outcome> {
  return new Observable<Outcome>((subscriber) => new Follower(subscriber, rt, signal).start(pending));
}

export function run<S extends GraphScope>(root: Exec<S>, scope: S, signal: AbortSignal | undefined): Observable<Outcome> {
  return new Observable<Outcome>((subscriber) => {
    const result = start(root, scope, signal);
    if (result instanceof Observable) return result.subscribe(subscriber);
    subscriber.next(result);
    subscriber.complete();
    return undefined;
  });
}

export function runPromise<S extends GraphScope>(root: Exec<S>, scope: S, signal: AbortSignal | undefined): Promise<Outcome> {
  const result = start(root, scope, signal);
  if (!(result instanceof Observable)) return Promise.resolve(result);
  return new Promise<Outcome>((resolve) => {
    result.subscribe(resolve);
  });
}
