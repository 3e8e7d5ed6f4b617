import type { Classifier, StepInfo } from './info.js';

/**
 * Categories the engine itself assigns. Callers add their own through classifiers
 * (e.g. 'dependency-unavailable'); the HTTP layer maps categories to problem details in one place
 * (src/http/failure.ts).
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
  /** Id of the failing node (its name when it has one), or GRAPH_STEP_ID outside any step. */
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
  constructor(
    step: StepInfo,
    readonly timeoutMs: number,
  ) {
    super(step, `step "${step.id}" (${step.kind}) timed out after ${timeoutMs} ms`, undefined, Category.timeout);
  }
}

/** Reason given to a step's AbortSignal (a plain Error: a DOMException costs ~7 us to build). */
export class RunAbortedError extends Error {
  override readonly name = 'AbortError';
  constructor(message = 'the run was torn down') {
    super(message);
  }
}

/**
 * The step id of failures that belong to no step (an external abort, an engine invariant). Callers
 * compare `StepError.step` with it rather than spelling the string, which is not a valid step name
 * and so can never be confused with one.
 */
export const GRAPH_STEP_ID = '<graph>';

/** The pseudo-node of GRAPH_STEP_ID. */
export const GRAPH_INFO: StepInfo = Object.freeze({ id: GRAPH_STEP_ID, name: undefined, kind: 'graph' });

/**
 * The message of any thrown value, for error texts and logs. Never throws itself: a cause whose
 * `toString` throws (a revoked proxy, an object without prototype) must not turn error reporting
 * into a second failure.
 */
export function messageOf(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  try {
    return String(cause);
  } catch {
    return 'unprintable error';
  }
}

/**
 * The category of `cause` for the node `info`: the node's classifier first, then the graph's,
 * else 'internal'. A classifier that throws counts as "not mine": classification runs inside
 * promise callbacks, where a throw would become an unhandled rejection and take the process down.
 */
export function categorize(cause: unknown, info: StepInfo, own: Classifier | undefined, graph: Classifier | undefined): string {
  return tryClassify(own, cause, info) ?? tryClassify(graph, cause, info) ?? Category.internal;
}

function tryClassify(classify: Classifier | undefined, cause: unknown, info: StepInfo): string | undefined {
  if (classify === undefined) return undefined;
  try {
    return classify(cause, info);
  } catch {
    return undefined;
  }
}

/** Per node, the function that turns any thrown value into a StepError naming that node. */
export type ErrorWrapper = (cause: unknown) => StepError;

/**
 * Built once per node at compile time. A StepError from a nested node passes through unchanged
 * (it already names its step and has its category).
 */
export function errorWrapper(info: StepInfo, own: Classifier | undefined, graph: Classifier | undefined): ErrorWrapper {
  return (cause) => {
    if (cause instanceof StepError) return cause;
    return new StepError(info, `step "${info.id}" (${info.kind}) failed: ${messageOf(cause)}`, cause, categorize(cause, info, own, graph));
  };
}

/**
 * What a node needs at run time to type its failures, built once per node at compile time:
 * `wrap` for failures that travel with the run, `report` for those nobody awaits (a release, a
 * `leave` on teardown), which go to `onTeardownError` and never throw.
 */
export interface Site {
  readonly info: StepInfo;
  readonly wrap: ErrorWrapper;
  readonly report: (cause: unknown) => void;
}

export function siteOf(
  info: StepInfo,
  own: Classifier | undefined,
  graph: Classifier | undefined,
  onTeardownError: ((error: StepError) => void) | undefined,
): Site {
  const wrap = errorWrapper(info, own, graph);
  const report = (cause: unknown): void => {
    if (onTeardownError === undefined) return;
    try {
      onTeardownError(wrap(cause));
    } catch {
      // The hook is the last resort (a logger); if it fails there is nobody left to tell, and a
      // throw here would escape from a promise callback as an unhandled rejection.
    }
  };
  return { info, wrap, report };
}
