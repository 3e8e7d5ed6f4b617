/**
 * What the OpenAPI document needs to know of a pipeline's steps, read from their kinds' definitions
 * here so that src/openapi reads it from the model and never a kind's name or spec: the answers the
 * steps give (`responses`) and the statuses their failures can have (`failures`). Nested steps count
 * (a transaction's, a parallel's branches'); after_response's do not, since the request has been
 * answered by the time they run.
 */
import type { StepResponse, StepSpecBase } from '../manifest/index.js';
import { allSteps, kindOf } from './checks/walk.js';
import type { StepKindModels } from './step-kind.js';

/** The statuses the pipeline's failed steps can answer with, besides 500, sorted. */
export function failureStatuses(kinds: StepKindModels, steps: readonly StepSpecBase[]): number[] {
  const out = new Set<number>();
  for (const s of allSteps(kinds, steps)) for (const status of kindOf(kinds, s).failures ?? []) out.add(status);
  return [...out].sort((a, b) => a - b);
}

/** What the pipeline's steps answer with, in declared order (a parent before its children). */
export function stepResponses(kinds: StepKindModels, steps: readonly StepSpecBase[]): StepResponse[] {
  const out: StepResponse[] = [];
  for (const s of allSteps(kinds, steps)) out.push(...(kindOf(kinds, s).responses?.(s) ?? []));
  return out;
}
