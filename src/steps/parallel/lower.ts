/** `parallel` blocks -> ParallelStepSpec: the decoder of the kind's definition. */
import type { Block } from '../../hcl/index.js';
import type { LowerContext } from '../../manifest/index.js';
import type { ParallelStepSpec } from './spec.js';

/** Nested blocks are checked by the step registry (respond and stream are refused there). */
export function lower(block: Block, cx: LowerContext): ParallelStepSpec | undefined {
  const s = cx.scope;
  for (const item of block.body.items) {
    if (item.kind === 'Attribute')
      s.error('Unsupported argument', item.nameRange, { detail: `A parallel block holds only steps; an argument named "${item.name}" is not expected here.` });
  }
  const blocks = block.body.items.filter((i): i is Block => i.kind === 'Block');
  if (blocks.length === 0) s.warning('Empty parallel', block.typeRange, { detail: 'This parallel block contains no step.' });
  const steps = cx.lowerNested(blocks, 'parallel');
  return { kind: 'parallel', ...(block.labels[0] !== undefined ? { name: block.labels[0] } : {}), steps, range: block.range, blockPath: s.path };
}
