/**
 * `starlark "<name>"`: waits for the Starlark host API (src/starlark/index.ts). Until it lands the step
 * is refused at boot like every kind without a runtime.
 */
import { notSupportedYet, type NodeCompiler } from '../registry.js';
import type { StarlarkStepSpec } from './spec.js';

export const compileStarlark: NodeCompiler<StarlarkStepSpec> = (spec, env) => notSupportedYet(spec, env);
