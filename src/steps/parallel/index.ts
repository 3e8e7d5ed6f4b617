/** `parallel ["<name>"]`: branches run concurrently; every output is visible afterwards. */
import { defineStepKind } from '../definition.js';
import { PARALLEL_CODES } from './codes.js';
import { lower } from './lower.js';
import { compileParallel } from './node.js';
import type { ParallelStepSpec } from './spec.js';

export type { ParallelStepSpec } from './spec.js';

export const parallelStep = defineStepKind<ParallelStepSpec>({
  kind: 'parallel',
  blocks: { parallel: { labels: ['name'], labelCounts: [0, 1], multiple: true } },
  holdsSteps: true,
  lower,
  codes: PARALLEL_CODES,
  children: (spec) => ({ steps: spec.steps, run: 'branches' }),
  compile: compileParallel,
});
