/**
 * Every run of a pipeline answers: the last step always answers (an unconditional `respond`, a
 * `stream` without `when`: DECISIONS.md §3, a pipeline that can finish without a response is a boot
 * error), and nothing follows such a terminal step (it could never run).
 */
import type { Range } from '../../diag/index.js';
import type { DecodeScope, StepSpecBase } from '../../manifest/index.js';
import type { StepKindModels } from '../step-kind.js';
import { allSteps, kindOf, stepLabel } from './walk.js';

function answers(kinds: StepKindModels, step: StepSpecBase): boolean | string {
  return kindOf(kinds, step).answers?.(step) ?? false;
}

export function checkFlow(kinds: StepKindModels, steps: readonly StepSpecBase[], scope: DecodeScope, emptyAt: Range): void {
  const end = steps.findIndex((s) => answers(kinds, s) === true);
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
  const condition = last && answers(kinds, last);
  scope.error('Pipeline can finish without a response', last ? last.range : emptyAt, {
    ...(last ? { path: last.blockPath } : {}),
    detail: last
      ? typeof condition === 'string'
        ? `The last step is conditional (${condition}), so when it does not apply no response is sent. End the pipeline with a respond that has no condition.`
        : `The pipeline ends with ${stepLabel(last)}, which does not answer the request. End it with a respond (without condition) or a stream.`
      : 'The pipeline has no step. End it with a respond (without condition) or a stream.',
  });
}

/** Every status the pipeline can answer with that is known at boot (respond and catch), sorted. */
export function staticStatuses(kinds: StepKindModels, steps: readonly StepSpecBase[]): number[] {
  const out = new Set<number>();
  for (const s of allSteps(kinds, steps)) for (const status of kindOf(kinds, s).statuses?.(s) ?? []) out.add(status);
  return [...out].sort((a, b) => a - b);
}
