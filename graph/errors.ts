import type { Classifier, StepInfo } from './types.js';

/**
 * Categories the engine itself assigns. Callers add their own through classifiers
 * (e.g. 'dependency-unavailable'); the HTTP layer maps categories to problem details in one place.
 */
export const Category = {
  internal: 'internal',
  timeout: 'timeout',
  cancelled: 'cancelled',
  /** A Promise/Observable step finished without producing a value. */
  empty: 'empty',
  /** A step returned something of the wrong shape (e.g. a sink without `source`). */
  invalidResult: 'invalid-result',
} as const;

/** A runtime failure, typed: which step, of which kind, why (cause), and how to classify it. */
export class StepError extends Error {
  override readonly name: string = 'StepError';
  /** Id of the failing node (its name when it has one). */
  readonly step: string;
  /** The failing node's kind ('sql', 'transaction'...). */
  readonly kind: string;
  /** 'internal', 'timeout', 'cancelled', 'empty', 'invalid-result' or a classifier's category. */
  readonly category: string;

  constructor(step: StepInfo, message: string, cause: unknown, category: string) {
    super(message, { cause });
    this.step = step.id;
    this.kind = step.kind;
    this.category = category;
  }
}

/** A step whose asynchronous result did not arrive within its `timeout`. */
export class StepTimeoutError extends StepError {
  override readonly name = 'StepTimeoutError';
  constructor(step: StepInfo, readonly timeoutMs: number) {
    super(step, `step "${step.id}" (${step.kind}) timed out after ${timeoutMs} ms`, undefined, Category.timeout);
  }
}

/** Reason given to the run's AbortSignal (a plain Error: a DOMException costs ~7 us to build). */
export class RunAbortedError extends Error {
  override readonly name = 'AbortError';
  constructor(message = 'the run was torn down') {
    super(message);
  }
}

/** The pseudo-node used for failures outside any step (external abort, engine invariants). */
export const GRAPH_INFO: StepInfo = { id: '<graph>', name: undefined, kind: 'graph' };

export function messageOf(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  try {
    return String(cause);
  } catch {
    return 'unprintable error';
  }
}

/** Per node, the function that turns any thrown value into a StepError naming that node. */
export type ErrorWrapper = (cause: unknown) => StepError;

/**
 * Built once per node at compile time: the node's classifier first, then the graph's, then
 * 'internal'. A StepError from a nested node passes through unchanged (it already names its step).
 */
export function errorWrapper(info: StepInfo, own: Classifier | undefined, graph: Classifier | undefined): ErrorWrapper {
  return (cause) => {
    if (cause instanceof StepError) return cause;
    const category = own?.(cause, info) ?? graph?.(cause, info) ?? Category.internal;
    return new StepError(info, `step "${info.id}" (${info.kind}) failed: ${messageOf(cause)}`, cause, category);
  };
}
