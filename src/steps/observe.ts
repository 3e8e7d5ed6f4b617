/**
 * Step observation for metrics (`server { metrics }`): each step node's `run` wrapped at compile time,
 * only when an observer is given (compile.ts), so a service without metrics pays nothing per request.
 * Timed is a step's own work, until what `run` returned settles (a stream step: until its source is
 * ready); steps inside parallel groups and containers are wrapped one by one. The observer is a plain
 * interface: this layer knows nothing of Prometheus (src/http implements it).
 */
import { tap } from 'rxjs/internal/operators/tap';
import { isObservable } from 'rxjs/internal/util/isObservable';
import type { RunContext, StepResult } from '../../graph/index.js';
import { StarlarkError } from '../starlark/index.js';
import type { EndpointNode, EndpointScope } from './contract.js';

export interface StepObserver {
  /** Called once per step node, at boot: what each run of a step of this kind reports its end to. */
  forKind(kind: string): StepTimer;
  /**
   * A Starlark script was stopped by one of its budgets: `steps` (max_steps), `timeout` (its time
   * budget, queueing for a worker included) or `size` (memory: a value or a worker heap too big).
   */
  starlarkBudgetExhausted(budget: StarlarkBudget): void;
}

export interface StepTimer {
  /** One run ended after `seconds`; `failed` when it threw, rejected or errored. */
  ended(seconds: number, failed: boolean): void;
}

export type StarlarkBudget = 'steps' | 'timeout' | 'size';

/** StarlarkError kinds that mean a budget ran out (src/starlark/program.ts lists every kind). */
const BUDGET_KINDS: ReadonlySet<string> = new Set<StarlarkBudget>(['steps', 'timeout', 'size']);

/** The node with its `run` timed; nodes without a `run` of their own are returned as they are. */
export function observeNode(node: EndpointNode, observer: StepObserver): EndpointNode {
  if (node.type === 'parallel' || node.type === 'container') return node;
  const timer = observer.forKind(node.kind ?? node.type);
  const run: (scope: EndpointScope, ctx: RunContext) => StepResult = node.run;
  const failed = (started: number, error: unknown): void => {
    timer.ended((performance.now() - started) / 1000, true);
    if (error instanceof StarlarkError && BUDGET_KINDS.has(error.kind)) observer.starlarkBudgetExhausted(error.kind as StarlarkBudget);
  };
  const timed = (scope: EndpointScope, ctx: RunContext): StepResult => {
    const started = performance.now();
    let out: StepResult;
    try {
      out = run(scope, ctx);
    } catch (error) {
      failed(started, error);
      throw error;
    }
    // The synchronous case (most steps) allocates nothing here.
    if (!isThenable(out) && !isObservable(out)) {
      timer.ended((performance.now() - started) / 1000, false);
      return out;
    }
    if (isThenable(out)) {
      // The engine keeps the promise it is handed; this one settles exactly as the step's did.
      return Promise.resolve(out).then(
        (value) => {
          timer.ended((performance.now() - started) / 1000, false);
          return value;
        },
        (error: unknown) => {
          failed(started, error);
          throw error;
        },
      );
    }
    let done = false;
    const once = (error?: unknown): void => {
      if (done) return;
      done = true;
      if (error === undefined) timer.ended((performance.now() - started) / 1000, false);
      else failed(started, error);
    };
    // The engine takes the first value and unsubscribes: that is the step's end too.
    return out.pipe(
      tap({ next: () => once(), error: (error: unknown) => once(error ?? new Error('observable failed')), complete: () => once(), unsubscribe: () => once() }),
    );
  };
  return { ...node, run: timed } as EndpointNode;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}
