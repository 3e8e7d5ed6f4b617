/**
 * Step names are unique within an endpoint, nested steps included: they all share the one
 * `steps.<name>` namespace (a transaction's inner steps are read as `steps.<inner>`).
 */
import { where } from '../../manifest/body.js';
import type { Scope } from '../../manifest/scope.js';
import type { StepSpec } from '../types.js';
import { allSteps } from './walk.js';

export function checkStepNames(steps: readonly StepSpec[], scope: Scope): void {
  const seen = new Map<string, StepSpec>();
  for (const step of allSteps(steps)) {
    if (step.kind === 'stream' || step.kind === 'respond' || step.name === undefined) continue;
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
