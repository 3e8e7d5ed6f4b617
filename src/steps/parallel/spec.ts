/** `parallel ["<name>"] { <steps> }`: branches run concurrently; all outputs are visible afterwards. */
import type { StepSpecBase } from '../../manifest/index.js';

export interface ParallelStepSpec extends StepSpecBase {
  readonly kind: 'parallel';
  readonly name?: string;
  /** Independent branches: no branch reads another's output (boot check); never respond or stream. */
  readonly steps: readonly StepSpecBase[];
}
