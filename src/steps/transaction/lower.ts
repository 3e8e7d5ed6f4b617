/** `transaction` blocks -> TransactionStepSpec: the decoder of the kind's definition. */
import type { SqlStepSpec } from '../sql/spec.js';
import type { Block } from '../../hcl/index.js';
import { type BodySchema, CATCH_RULE, type LowerContext, SQL_KINDS, blocksOf, decodeBody, decodeCatches, readConnection } from '../../manifest/index.js';
import type { TransactionStepSpec } from './spec.js';

const TRANSACTION_BODY: BodySchema = {
  attributes: { connection: {} },
  // Other step blocks are accepted only to be refused below with the reason.
  blocks: { sql: { labels: ['name'], multiple: true }, catch: CATCH_RULE, parallel: { labelCounts: [0, 1], labels: ['name'], multiple: true } },
};

export function lower(block: Block, cx: LowerContext): TransactionStepSpec | undefined {
  const s = cx.scope;
  const d = decodeBody(block.body, TRANSACTION_BODY, s, block);
  const connection = readConnection(d.attrs.get('connection'), SQL_KINDS, s, cx.env.connections, block.typeRange);
  const sqlBlocks = blocksOf(d, 'sql');
  for (const nested of blocksOf(d, 'parallel')) {
    s.error('Parallel in a transaction', nested.typeRange, {
      detail: 'A transaction runs its sql steps on one client, which runs one query at a time; put the parallel block outside the transaction.',
    });
  }
  if (sqlBlocks.length === 0 && blocksOf(d, 'parallel').length === 0)
    s.error('Empty transaction', block.labelRanges[0] ?? block.typeRange, { detail: 'A transaction contains at least one sql step.' });
  const lowered = cx.lowerNested(sqlBlocks, 'transaction') as SqlStepSpec[];
  const catches = decodeCatches(blocksOf(d, 'catch'), s);
  if (!connection) return undefined;
  const steps = lowered.map((step) => ({ ...step, transactionConnection: connection }));
  return { kind: 'transaction', name: block.labels[0]!, connection, steps, catches, range: block.range, blockPath: s.path };
}
