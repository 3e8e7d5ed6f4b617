import { Observable } from 'rxjs';
import { RunState } from './cancel.js';
import { Category, GRAPH_INFO, RunAbortedError, StepError } from './errors.js';
import { isPending, type Eventual, type Exec, type Signal } from './exec.js';
import type { DoneOutcome, ErrorOutcome, GraphScope, Outcome, StreamOutcome } from './types.js';

const DONE: DoneOutcome = Object.freeze({ kind: 'done' });

function errorOutcome(cause: unknown): ErrorOutcome {
  const error =
    cause instanceof StepError
      ? cause
      : new StepError(GRAPH_INFO, `graph run failed: ${cause instanceof Error ? cause.message : String(cause)}`, cause, Category.internal);
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
  const upstream = outcome.source;
  const source = new Observable<unknown>((subscriber) => {
    const subscription = upstream.subscribe(subscriber);
    return () => {
      subscription.unsubscribe();
      rt.abort();
    };
  });
  return { kind: 'stream', step: outcome.step, payload: outcome.payload, source };
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

/** The asynchronous remainder of a run, as an Observable whose teardown cancels it. */
function follow(pending: Observable<Signal>, rt: RunState, signal: AbortSignal | undefined): Observable<Outcome> {
  return new Observable<Outcome>((subscriber) => {
    let settled = false;
    const settle = (outcome: () => Outcome) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      subscriber.next(outcome());
      subscriber.complete();
    };
    const onAbort = () => {
      if (settled) return;
      // Abort first so steps see the external reason, then unsubscribe (teardown) and report.
      rt.abort(signal?.reason ?? new RunAbortedError());
      subscription?.unsubscribe();
      settle(() => cancelledOutcome(signal?.reason));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let subscription: { unsubscribe(): void } | undefined;
    subscription = pending.subscribe({
      next: (s) => settle(() => finish(s, rt)),
      error: (e: unknown) =>
        settle(() => {
          rt.abort();
          return errorOutcome(e);
        }),
      complete: () =>
        settle(() => {
          rt.abort();
          return errorOutcome(new Error('internal: a node completed without a signal'));
        }),
    });
    if (settled) subscription.unsubscribe();
    return () => {
      signal?.removeEventListener('abort', onAbort);
      subscription?.unsubscribe();
      // Unsubscribed before the outcome (client gone, request time-out): cancel everything.
      if (!settled) rt.abort();
    };
  });
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
