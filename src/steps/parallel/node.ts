/**
 * `parallel`: its steps run concurrently (the graph's fork/join); every output is visible afterwards.
 * The model has checked that no branch reads a sibling's output and that none responds or streams.
 */
import type { EndpointNode } from '../contract.js';
import type { NodeCompiler } from '../definition.js';
import type { ParallelStepSpec } from './spec.js';

export const compileParallel: NodeCompiler<ParallelStepSpec> = (spec, env) => {
  const branches = env.compileSteps(spec.steps);
  if (!branches) return undefined;
  const node: EndpointNode = {
    type: 'parallel',
    kind: 'parallel',
    id: env.idOf(spec),
    ...(spec.name !== undefined ? { name: spec.name } : {}),
    meta: spec,
    branches,
  };
  return node;
};
