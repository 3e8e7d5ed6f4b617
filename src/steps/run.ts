/**
 * One request's run of a compiled endpoint graph, and its outcome as the adapter's result.
 */
import { isObservable, type Observable, type Subscription } from 'rxjs';
import { Category, GRAPH_STEP_ID, isLiveSource, type CompiledGraph, type Outcome, type StreamOutcome } from '../../graph/index.js';
import type { EndpointResult, EndpointScope, PendingResult, RequestContext, ResponseResult, StreamResult } from './contract.js';
import { classifyConnectorError } from '../connectors/index.js';
import type { StreamPayload } from './stream/index.js';

/**
 * One request's run of an endpoint graph: a fresh scope, the synchronous fast path when every step is
 * synchronous, else a pending result whose `cancel` unsubscribes the run (its steps are torn down).
 */
export function runGraph(graph: CompiledGraph<EndpointScope>, ctx: RequestContext): EndpointResult | PendingResult {
  return outcomeToResult(graph.start({ steps: {}, ctx }));
}

/** Graph outcomes as the adapter's results; asynchronous runs become a cancellable pending result. */
function outcomeToResult(outcome: Outcome | Observable<Outcome>): EndpointResult | PendingResult {
  if (!isObservable(outcome)) return settle(outcome);
  let subscription: Subscription | undefined;
  const result = new Promise<EndpointResult>((resolve) => {
    subscription = outcome.subscribe({
      next: (o) => resolve(settle(o)),
      error: (error: unknown) => resolve({ kind: 'failure', category: Category.internal, error }),
    });
  });
  return {
    kind: 'pending',
    result,
    cancel() {
      // Unsubscribing tears the run down: steps abort their I/O and release what they hold. A
      // subscription unsubscribes once; a second cancel is a no-op.
      subscription?.unsubscribe();
    },
  };
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
