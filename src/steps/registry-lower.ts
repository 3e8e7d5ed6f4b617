/**
 * The step kinds the manifest language knows: block type -> label rule and `lower` (block -> spec).
 * Adding a step kind is adding src/steps/<kind>/spec.ts and one line here; the pipeline and route
 * decoders, nested `parallel`/`transaction` bodies and did-you-mean all read this table.
 */
import type { Block } from '../hcl/ast.js';
import { didYouMean } from '../diag/suggest.js';
import type { BlockRule } from '../manifest/body.js';
import { labelsOk } from '../manifest/body.js';
import type { DecodeEnv, LowerContext, StepPlace } from '../manifest/lower-context.js';
import type { Scope } from '../manifest/scope.js';
import type { StepKind, StepSpec } from '../model/types.js';
import { lower as lowerSql } from './sql/spec.js';
import { lower as lowerRedis } from './redis/spec.js';
import { lower as lowerHttp } from './http/spec.js';
import { lower as lowerStarlark } from './starlark/spec.js';
import { lower as lowerTransaction } from './transaction/spec.js';
import { lower as lowerParallel } from './parallel/spec.js';
import { lower as lowerRespond } from './respond/spec.js';
import { lower as lowerStream } from './stream/spec.js';

export interface StepLowerer {
  readonly kind: StepKind;
  readonly rule: BlockRule;
  /** Places the kind may not appear, with the reason. */
  readonly notIn?: Partial<Record<StepPlace, string>>;
  lower(block: Block, cx: LowerContext): StepSpec | undefined;
}

const named: BlockRule = { labels: ['name'], multiple: true };
const terminal = { parallel: 'a parallel branch cannot answer the request; put it after the parallel block' };

export const STEP_LOWERERS: Readonly<Record<string, StepLowerer>> = {
  sql: { kind: 'sql', rule: named, lower: lowerSql },
  redis: { kind: 'redis', rule: named, lower: lowerRedis },
  kv: { kind: 'redis', rule: named, lower: lowerRedis },
  http: { kind: 'http', rule: named, lower: lowerHttp },
  starlark: { kind: 'starlark', rule: named, lower: lowerStarlark },
  transaction: { kind: 'transaction', rule: named, lower: lowerTransaction },
  parallel: { kind: 'parallel', rule: { labels: ['name'], labelCounts: [0, 1], multiple: true }, lower: lowerParallel },
  respond: { kind: 'respond', rule: { multiple: true }, notIn: terminal, lower: lowerRespond },
  stream: { kind: 'stream', rule: { labels: ['format'], multiple: true }, notIn: terminal, lower: lowerStream },
};

/** Block rules for a body that holds steps (a pipeline, a route, a parallel). */
export function stepBlockRules(): Record<string, BlockRule> {
  return Object.fromEntries(Object.entries(STEP_LOWERERS).map(([type, l]) => [type, l.rule]));
}

/**
 * Lowers step blocks in order. Unknown block types and bad labels are reported here too, because
 * nested bodies (parallel) are not pre-checked by a body schema.
 */
export function lowerSteps(
  blocks: readonly Block[],
  scope: Scope,
  env: DecodeEnv,
  place: StepPlace,
  /** Counts blocks that could not be lowered (already reported), so flow checks do not pile on. */
  failures: { count: number } = { count: 0 },
): StepSpec[] {
  const out: StepSpec[] = [];
  for (const block of blocks) {
    const lowerer = Object.hasOwn(STEP_LOWERERS, block.type) ? STEP_LOWERERS[block.type] : undefined;
    if (!lowerer) {
      const suggestion = didYouMean(block.type, Object.keys(STEP_LOWERERS));
      scope.error('Unsupported block type', block.typeRange, {
        detail: `Blocks of type "${block.type}" are not expected here; steps are ${Object.keys(STEP_LOWERERS).join(', ')}.`,
        ...(suggestion ? { suggestion } : {}),
      });
      failures.count++;
      continue;
    }
    const refused = lowerer.notIn?.[place];
    if (refused) {
      scope.error(`Unexpected ${block.type} step`, block.typeRange, { detail: `A ${block.type} step is not allowed here: ${refused}.` });
      failures.count++;
      continue;
    }
    if (!labelsOk(block, lowerer.rule, scope)) {
      failures.count++;
      continue;
    }
    const cx: LowerContext = {
      scope: scope.enter(block),
      env,
      place,
      lowerNested: (nested, nestedPlace) => lowerSteps(nested, scope.enter(block), env, nestedPlace),
    };
    const spec = lowerer.lower(block, cx);
    if (spec) out.push(spec);
    else failures.count++;
  }
  return out;
}
