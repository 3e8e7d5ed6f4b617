/**
 * Step spans for tracing (docs/operations.md "Tracing"): each step node's `run` wrapped at compile
 * time, only when tracing is configured (compile.ts `traceSteps`), in a span child of the request's,
 * ended when the result settles (as ./observe.ts times it). `run` executes with its span current, so
 * the connectors' client spans are its children. The tracer is read per run (src/tracing
 * `activeTracer`): the SDK starts after the manifest is compiled.
 */
import { tap } from 'rxjs/internal/operators/tap';
import { isObservable } from 'rxjs/internal/util/isObservable';
import type { RunContext, StepResult } from '../../graph/index.js';
import { activeTracer, REQUEST_SPAN, type TraceSpan } from '../tracing/index.js';
import type { EndpointNode, EndpointScope } from './contract.js';

/** The node with its `run` in a span; nodes without a `run` of their own are returned as they are. */
export function traceNode(node: EndpointNode): EndpointNode {
  if (node.type === 'parallel' || node.type === 'container') return node;
  const kind = node.kind ?? node.type;
  const name = node.name ?? node.id ?? kind;
  const run: (scope: EndpointScope, ctx: RunContext) => StepResult = node.run;
  const traced = (scope: EndpointScope, ctx: RunContext): StepResult => {
    const tracer = activeTracer();
    const parent = (scope.ctx as { [REQUEST_SPAN]?: TraceSpan })[REQUEST_SPAN];
    // No SDK (stopped), or a run outside a traced request: the step as compiled.
    if (tracer === undefined || parent === undefined) return run(scope, ctx);
    const span = tracer.step(parent, kind, name);
    let out: StepResult;
    try {
      out = tracer.within(span, () => run(scope, ctx));
    } catch (error) {
      span.fail(error);
      span.end();
      throw error;
    }
    if (isThenable(out)) {
      return Promise.resolve(out).then(
        (value) => {
          span.end();
          return value;
        },
        (error: unknown) => {
          span.fail(error);
          span.end();
          throw error;
        },
      );
    }
    if (!isObservable(out)) {
      span.end();
      return out;
    }
    let done = false;
    const once = (error?: unknown): void => {
      if (done) return;
      done = true;
      if (error !== undefined) span.fail(error);
      span.end();
    };
    // The engine takes the first value and unsubscribes: that is the step's end too.
    return out.pipe(
      tap({ next: () => once(), error: (error: unknown) => once(error ?? new Error('observable failed')), complete: () => once(), unsubscribe: () => once() }),
    );
  };
  return { ...node, run: traced } as EndpointNode;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}
