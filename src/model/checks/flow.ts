/**
 * Every run of a pipeline answers: the last step is an unconditional `respond` or a `stream`
 * without `when` (DECISIONS.md §3: a pipeline that can finish without a response is a boot error),
 * and nothing follows such a terminal step (it could never run).
 */
import type { Range } from '../../diag/range.js';
import type { Scope } from '../../manifest/scope.js';
import type { StepSpec } from '../types.js';
import { stepLabel } from './walk.js';

export function isTerminal(step: StepSpec): boolean {
  return (step.kind === 'respond' && !step.condition) || (step.kind === 'stream' && !step.when);
}

export function checkFlow(steps: readonly StepSpec[], scope: Scope, emptyAt: Range): void {
  const end = steps.findIndex(isTerminal);
  if (end >= 0 && end < steps.length - 1) {
    const next = steps[end + 1]!;
    scope.error('Unreachable step', next.range, {
      path: next.blockPath,
      detail: `The ${stepLabel(steps[end]!)} step before it always ends the pipeline, so ${stepLabel(next)} never runs.`,
    });
    return;
  }
  if (end >= 0) return;
  const last = steps[steps.length - 1];
  scope.error('Pipeline can finish without a response', last ? last.range : emptyAt, {
    ...(last ? { path: last.blockPath } : {}),
    detail: last
      ? last.kind === 'respond' || last.kind === 'stream'
        ? `The last step is conditional (${last.kind === 'respond' ? 'condition' : 'when'}), so when it does not apply no response is sent. End the pipeline with a respond that has no condition.`
        : `The pipeline ends with ${stepLabel(last)}, which does not answer the request. End it with a respond (without condition) or a stream.`
      : 'The pipeline has no step. End it with a respond (without condition) or a stream.',
  });
}

/** Every status the pipeline can answer with that is known at boot (respond and catch), sorted. */
export function staticStatuses(steps: readonly StepSpec[]): number[] {
  const out = new Set<number>();
  const visit = (list: readonly StepSpec[]): void => {
    for (const s of list) {
      if (s.kind === 'respond' && s.statusCode !== undefined) out.add(s.statusCode);
      if (s.kind === 'sql' || s.kind === 'transaction') for (const c of s.catches) out.add(c.status);
      if (s.kind === 'transaction' || s.kind === 'parallel') visit(s.steps);
    }
  };
  visit(steps);
  return [...out].sort((a, b) => a - b);
}
