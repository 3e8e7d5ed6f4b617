/** `starlark "<name>"`: a sandboxed script whose `execute(ctx)` result is `steps.<name>.result`. */
import { defineStepKind, NAMED_STEP } from '../definition.js';
import { STARLARK_CODES } from './codes.js';
import { lower } from './lower.js';
import { compileStarlark } from './node.js';
import type { StarlarkStepSpec } from './spec.js';

export type { StarlarkStepSpec } from './spec.js';

export const starlarkStep = defineStepKind<StarlarkStepSpec>({
  kind: 'starlark',
  continuable: true,
  blocks: { starlark: NAMED_STEP },
  lower,
  codes: STARLARK_CODES,
  outputs: () => ['result'],
  // Its time-out (always set: the step's or the default, within the request's); any other failure is a 500.
  failures: [504],
  compile: compileStarlark,
});
