/**
 * Every step kind, listed once. The manifest's decoders, the model's boot checks and the graph
 * compiler are all built from this list: adding a kind is its folder (spec.ts, lower.ts, node.ts,
 * index.ts) and one line here.
 */
import type { StepKindDefinition } from './definition.js';
import { httpStep } from './http/index.js';
import { parallelStep } from './parallel/index.js';
import { redisStep } from './redis/index.js';
import { respondStep } from './respond/index.js';
import { sqlStep } from './sql/index.js';
import { starlarkStep } from './starlark/index.js';
import { streamStep } from './stream/index.js';
import { transactionStep } from './transaction/index.js';

export const STEP_KINDS = [sqlStep, redisStep, httpStep, starlarkStep, transactionStep, parallelStep, respondStep, streamStep] as const;

/** A step spec of any kind: the union of what the listed kinds decode. */
export type StepSpec = Parameters<(typeof STEP_KINDS)[number]['compile']>[0];

export type StepKind = StepSpec['kind'];

/**
 * A definition of any kind, as a list of built-in and custom kinds holds them (`any`: see
 * `AnyStepKindModel` in src/model/step-kind.ts).
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type AnyStepKindDefinition = StepKindDefinition<any>;
