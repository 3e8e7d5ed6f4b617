/**
 * One request's run of a compiled endpoint graph, and its outcome as the adapter's result.
 */
import { isObservable } from 'rxjs/internal/util/isObservable';
import type { Observable } from 'rxjs/internal/Observable';
import type { Unsubscribable } from 'rxjs/internal/types';
import { Category, GRAPH_STEP_ID, follow, isLiveSource, type CompiledGraph, type Outcome, type StreamOutcome } from '../../graph/index.js';
import type { EndpointResult, EndpointScope, PendingResult, RequestContext, ResponseResult, ResultReceiver, StreamResult } from './contract.js';
import { classifyConnectorError } from '../connectors/index.js';
import type { StreamPayload } from './stream/index.js';

/**
 * One request's run of an endpoint graph: a fresh scope, the synchronous fast path when every step is
 * synchronous, else a pending result whose `cancel` unsubscribes the run (its steps are torn down).
 */
export function runGraph(graph: CompiledGraph<EndpointScope>, ctx: RequestContext): EndpointResult | PendingResult {
  return outcomeToResult(graph.start({ steps: {}, ctx }));
}

/** What to do with a run's result once the adapter has it, and the run's scope (after_response). */
export type Answered = (result: EndpointResult, scope: EndpointScope) => void;

/**
 * `runGraph`, then `answered` with the result and the scope: at once when the run was synchronous
 * (the adapter writes the answer right after), else right after the adapter was handed the result
 * (and wrote it). Not when the run was cancelled (a time-out, a client that left).
 */
export function runGraphThen(graph: CompiledGraph<EndpointScope>, ctx: RequestContext, answered: Answered): EndpointResult | PendingResult {
  const scope: EndpointScope = { steps: {}, ctx };
  const outcome = graph.start(scope);
  if (isObservable(outcome)) return new PendingRun(outcome, answered, scope);
  const result = settle(outcome);
  answered(result, scope);
  return result;
}

/** Graph outcomes as the adapter's results; asynchronous runs become a cancellable pending result. */
function outcomeToResult(outcome: Outcome | Observable<Outcome>): EndpointResult | PendingResult {
  return isObservable(outcome) ? new PendingRun(outcome, undefined, undefined) : settle(outcome);
}

/**
 * An asynchronous run, followed by one receiver. The run's Observable is subscribed with this
 * object as the observer (method shorthand, no closure per request); fields are `declare`d and set in
 * the constructor for the reason graph/once.ts gives.
 */
class PendingRun implements PendingResult {
  declare readonly kind: 'pending';
  declare private readonly outcome: Observable<Outcome>;
  declare private receiver: ResultReceiver | undefined;
  declare private subscription: Unsubscribable | undefined;
  declare private cancelled: boolean;
  declare private readonly answered: Answered | undefined;
  declare private readonly scope: EndpointScope | undefined;

  constructor(outcome: Observable<Outcome>, answered: Answered | undefined, scope: EndpointScope | undefined) {
    this.kind = 'pending';
    this.outcome = outcome;
    this.receiver = undefined;
    this.subscription = undefined;
    this.cancelled = false;
    this.answered = answered;
    this.scope = scope;
  }

  follow(receiver: ResultReceiver): void {
    if (this.cancelled || this.receiver !== undefined) return;
    this.receiver = receiver;
    const subscription = follow(this.outcome, this);
    // Settled during subscribe, or cancelled by the receiver while it settled: nothing to hold.
    if (this.cancelled) subscription.unsubscribe();
    else this.subscription = subscription;
  }

  next(outcome: Outcome): void {
    if (this.cancelled) return;
    const result = settle(outcome);
    this.receiver!.settle(result);
    // The receiver may have found the request timed out or abandoned just now: then it cancelled.
    if (this.answered !== undefined && !this.cancelled) this.answered(result, this.scope!);
  }

  error(error: unknown): void {
    if (!this.cancelled) this.receiver!.settle({ kind: 'failure', category: Category.internal, error });
  }

  complete(): void {}

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    // Unsubscribing tears the run down: steps abort their I/O and release what they hold.
    this.subscription?.unsubscribe();
  }
}

function settle(outcome: Outcome): EndpointResult {
  switch (outcome.kind) {
    case 'exit':
      return outcome.payload as ResponseResult;
    case 'error': {
      const error = outcome.error;
      // Failures outside any step (engine invariants) name no step rather than the engine's pseudo-node.
      const step = error.step === GRAPH_STEP_ID ? undefined : error.step;
      return { kind: 'failure', category: error.category, step, error: error.cause ?? error };
    }
    case 'stream':
      return streamResult(outcome);
    case 'done':
      return { kind: 'failure', category: Category.internal, error: new Error('the pipeline finished without a response') };
  }
}

function streamResult(outcome: StreamOutcome): StreamResult {
  const { encoding, headers } = outcome.payload as StreamPayload;
  return {
    kind: 'stream',
    step: outcome.step,
    source: outcome.source,
    live: isLiveSource(outcome.source),
    encoding,
    headers,
    categoryOf: sourceCategory,
    dispose: (end, error) => outcome.dispose(end, error),
  };
}

/** A source fails as its connector says (an outage is a 503, a time-out a 504), else `internal`. */
function sourceCategory(error: unknown): string {
  return classifyConnectorError(error) ?? Category.internal;
}
