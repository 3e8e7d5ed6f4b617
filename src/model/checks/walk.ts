/** Small helpers over the step tree shared by the boot checks. */
import type { Expr } from '../step-common.js';
import type { StepSpec } from '../types.js';

/** Steps nested directly in a step (transaction's sql steps, parallel's branches). */
export function childrenOf(step: StepSpec): readonly StepSpec[] {
  return step.kind === 'transaction' || step.kind === 'parallel' ? step.steps : [];
}

/** Every step of a tree, depth first, in declared order. */
export function* allSteps(steps: readonly StepSpec[]): Generator<StepSpec> {
  for (const s of steps) {
    yield s;
    yield* allSteps(childrenOf(s));
  }
}

/** The names a step makes available to later steps: its own and its nested steps'. */
export function definedNames(step: StepSpec): string[] {
  const out: string[] = [];
  for (const s of allSteps([step])) if (s.kind !== 'stream' && s.name !== undefined) out.push(s.name);
  return out;
}

function isExpr(v: unknown): v is Expr {
  return typeof v === 'object' && v !== null && typeof (v as Expr).evaluate === 'function' && Array.isArray((v as Expr).references);
}

/** Spec keys that never hold an expression (nested steps are walked by the caller). */
const NOT_EXPR = new Set(['kind', 'name', 'steps', 'range', 'sourceRange', 'blockPath', 'connection', 'schema', 'query', 'parameters', 'columns', 'format', 'op']);

/**
 * The compiled expressions a step holds itself (nested steps excluded): found structurally, so a
 * new attribute on a spec is checked without touching this file.
 */
export function ownExprs(step: StepSpec): Expr[] {
  const out: Expr[] = [];
  const visit = (v: unknown): void => {
    if (isExpr(v)) out.push(v);
    else if (v instanceof Map) for (const x of v.values()) visit(x);
    else if (Array.isArray(v)) for (const x of v) visit(x);
    else if (typeof v === 'object' && v !== null && !('start' in v)) for (const x of Object.values(v)) visit(x);
  };
  for (const key in step) if (!NOT_EXPR.has(key)) visit((step as unknown as Record<string, unknown>)[key]);
  return out;
}

/** The outputs `steps.<name>.<output>` a step offers, or undefined when any member is allowed. */
export function outputsOf(step: StepSpec): readonly string[] | undefined {
  switch (step.kind) {
    case 'sql':
      return step.stream ? ['stream'] : ['row', 'rows', 'rows_affected'];
    case 'redis':
      return step.op === 'SUBSCRIBE' ? ['stream'] : ['value'];
    case 'http':
      return step.stream ? ['status', 'headers', 'stream'] : ['status', 'headers', 'body'];
    case 'starlark':
      return ['result'];
    case 'transaction':
    case 'parallel':
      return step.steps.flatMap(definedNames);
    default:
      return undefined;
  }
}

export function stepLabel(step: StepSpec): string {
  return step.name !== undefined ? `${step.kind} "${step.name}"` : step.kind;
}
