/** `parallel ["<name>"] { <steps> }`: branches run concurrently; all outputs are visible afterwards. */
import type { StepBase } from '../../model/step-common.js';
import type { StepSpec } from '../../model/types.js';
import type { Block } from '../../hcl/ast.js';
import type { LowerContext } from '../../manifest/lower-context.js';

export interface ParallelStepSpec extends StepBase {
  readonly kind: 'parallel';
  readonly name?: string;
  /** Independent branches: no branch reads another's output (boot check); never respond or stream. */
  readonly steps: readonly StepSpec[];
}

// ---------------------------------------------------------------- lower: block -> spec

/** Nested blocks are checked by the step registry (respond and stream are refused there). */
export function lower(block: Block, cx: LowerContext): ParallelStepSpec | undefined {
  const s = cx.scope;
  for (const item of block.body.items) {
    if (item.kind === 'Attribute') s.error('Unsupported argument', item.nameRange, { detail: `A parallel block holds only steps; an argument named "${item.name}" is not expected here.` });
  }
  const blocks = block.body.items.filter((i): i is Block => i.kind === 'Block');
  if (blocks.length === 0) s.warning('Empty parallel', block.typeRange, { detail: 'This parallel block contains no step.' });
  const steps = cx.lowerNested(blocks, 'parallel');
  return { kind: 'parallel', ...(block.labels[0] !== undefined ? { name: block.labels[0] } : {}), steps, range: block.range, blockPath: s.path };
}
