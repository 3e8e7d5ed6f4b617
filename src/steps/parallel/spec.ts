/** `parallel ["<name>"] { <steps> }`: branches run concurrently; all outputs are visible afterwards. */
import type { StepBase } from '../../model/step-common.js';
import type { StepSpec } from '../../model/types.js';

export interface ParallelStepSpec extends StepBase {
  readonly kind: 'parallel';
  readonly name?: string;
  /** Independent branches: no branch reads another's output (boot check); never respond or stream. */
  readonly steps: readonly StepSpec[];
}
