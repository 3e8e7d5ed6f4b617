/**
 * Step kinds of an embedding program's own: `defineStep` (./define.ts) gives the public shape, and
 * `customStepKind` the step kind definition that the manifest decoders, the model checks and the
 * graph compiler take like a built-in one (src/steps/kinds.ts), handed to them through the load
 * and compile options rather than a global registry.
 */
import { defineStepKind, NAMED_STEP, type StepKindDefinition } from '../definition.js';
import type { CustomStep } from './define.js';
import { lowerCustom } from './lower.js';
import { compileCustom } from './node.js';
import type { CustomStepSpec } from './spec.js';

export type { CustomStepSpec } from './spec.js';

export {
  defineStep,
  type CustomStep,
  type JsonSchema,
  type StepAttribute,
  type StepAttributeType,
  type StepAttributeValues,
  type StepCheckReport,
  type StepCheckReportOptions,
  type StepCode,
  type StepFailureStatus,
  type StepOptions,
  type StepRunContext,
} from './define.js';

export function customStepKind(step: CustomStep): StepKindDefinition<CustomStepSpec> {
  return defineStepKind<CustomStepSpec>({
    kind: step.name,
    continuable: true,
    blocks: { [step.name]: NAMED_STEP },
    lower: lowerCustom(step),
    codes: step.codes,
    outputs: () => step.outputs,
    failures: step.failures,
    ...(step.stream ? { outputsHint: () => 'it streams: its items are `stream`, for a stream step' } : {}),
    compile: compileCustom(step),
  });
}
