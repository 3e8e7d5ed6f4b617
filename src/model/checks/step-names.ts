/**
 * Step names are unique within an endpoint, nested steps included: they all share the one
 * `steps.<name>` namespace (a transaction's inner steps are read as `steps.<inner>`).
 */
import { where, type DecodeScope, type StepSpecBase } from '../../manifest/index.js';
import type { StepKindModels } from '../step-kind.js';
import { allSteps } from './walk.js';

export function checkStepNames(kinds: StepKindModels, steps: readonly StepSpecBase[], scope: DecodeScope): void {
  const seen = new Map<string, StepSpecBase>();
  for (const step of allSteps(kinds, steps)) {
    if (step.name === undefined) continue;
    const previous = seen.get(step.name);
    if (previous) {
      scope.error('Duplicate step name', step.range, {
        path: step.blockPath,
        detail: `A step named "${step.name}" is already declared in this endpoint at ${where(previous.range)}; steps.${step.name} must name one step.`,
      });
      continue;
    }
    seen.set(step.name, step);
  }
}
