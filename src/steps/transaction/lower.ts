/** `transaction` blocks -> TransactionStepSpec: the decoder of the kind's definition. */
import type { SqlStepSpec } from '../sql/spec.js';
import type { Block } from '../../hcl/index.js';
import { type BodySchema, CATCH_RULE, type LowerContext, blocksOf, decodeBody, decodeCatches, readConnection } from '../../manifest/index.js';
import type { TransactionStepSpec } from './spec.js';

const TRANSACTION_BODY: BodySchema = {
  attributes: { connection: {} },
  blocks: { sql: { labels: ['name'], multiple: true }, catch: CATCH_RULE },
};

export function lower(block: Block, cx: LowerContext): TransactionStepSpec | undefined {
  const s = cx.scope;
  const d = decodeBody(block.body, TRANSACTION_BODY, s, block);
  const connection = readConnection(d.attrs.get('connection'), 'postgres', s, cx.env.connections, block.typeRange);
  const sqlBlocks = blocksOf(d, 'sql');
  if (sqlBlocks.length === 0) s.error('Empty transaction', block.labelRanges[0] ?? block.typeRange, { detail: 'A transaction contains at least one sql step.' });
  const steps = cx.lowerNested(sqlBlocks, 'transaction') as SqlStepSpec[];
  const catches = decodeCatches(blocksOf(d, 'catch'), s);
  if (!connection) return undefined;
  return { kind: 'transaction', name: block.labels[0]!, connection, steps, catches, range: block.range, blockPath: s.path };
}
