/**
 * Small helpers over the step tree shared by the boot checks. What a step holds, offers and answers
 * comes from its kind's definition (`StepKindModel`), injected by src/steps.
 */
import type { Expr, StepSpecBase } from '../../manifest/index.js';
import type { StepChildren, StepKindModel, StepKindModels } from '../step-kind.js';

/** The definition of a step's kind; every spec was produced by one, so it is always there. */
export function kindOf(kinds: StepKindModels, step: StepSpecBase): StepKindModel {
  const kind = kinds.get(step.kind);
  if (!kind) throw new Error(`no definition for step kind "${step.kind}"`);
  return kind;
}

/** Steps nested directly in a step (a transaction's sql steps, a parallel's branches). */
export function childrenOf(kinds: StepKindModels, step: StepSpecBase): StepChildren | undefined {
  return kindOf(kinds, step).children?.(step);
}

/** Every step of a tree, depth first, in declared order. */
export function* allSteps(kinds: StepKindModels, steps: readonly StepSpecBase[]): Generator<StepSpecBase> {
  for (const s of steps) {
    yield s;
    yield* allSteps(kinds, childrenOf(kinds, s)?.steps ?? []);
  }
}

/** The names a step makes available to later steps: its own and its nested steps'. */
export function definedNames(kinds: StepKindModels, step: StepSpecBase): string[] {
  const out: string[] = [];
  for (const s of allSteps(kinds, [step])) if (s.name !== undefined) out.push(s.name);
  return out;
}

function isExpr(v: unknown): v is Expr {
  return typeof v === 'object' && v !== null && typeof (v as Expr).evaluate === 'function' && Array.isArray((v as Expr).references);
}

/** Spec keys that never hold an expression (nested steps are walked by the caller). */
const NOT_EXPR = new Set([
  'kind',
  'name',
  'steps',
  'range',
  'sourceRange',
  'blockPath',
  'connection',
  'schema',
  'query',
  'parameters',
  'columns',
  'format',
  'op',
]);

/**
 * The compiled expressions a step holds itself (nested steps excluded): found structurally, so a
 * new attribute on a spec is checked without touching this file.
 */
export function ownExprs(step: StepSpecBase): Expr[] {
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
export function outputsOf(kinds: StepKindModels, step: StepSpecBase): readonly string[] | undefined {
  const children = childrenOf(kinds, step);
  if (children) return children.steps.flatMap((s) => definedNames(kinds, s));
  const outputs = kindOf(kinds, step).outputs?.(step);
  // `on_error = "continue"`: whether it succeeded, and what failed.
  return outputs !== undefined && step.onError === 'continue' ? [...outputs, ...CONTINUED_OUTPUTS] : outputs;
}

const CONTINUED_OUTPUTS = ['ok', 'error'] as const;

export function stepLabel(step: StepSpecBase): string {
  return step.name !== undefined ? `${step.kind} "${step.name}"` : step.kind;
}
