/** `transaction "<name>" { connection, sql "<n>" {...}..., catch "<code>" {...} }` */
import type { CatchSpec, ConnectionRef, StepBase } from '../../model/step-common.js';
import type { SqlStepSpec } from '../sql/spec.js';
import type { Block } from '../../hcl/ast.js';
import type { LowerContext } from '../../manifest/lower-context.js';
import { blocksOf, decodeBody, type BodySchema } from '../../manifest/body.js';
import { CATCH_RULE, decodeCatches } from '../../manifest/catch.js';
import { readConnection } from '../../manifest/refs.js';

export interface TransactionStepSpec extends StepBase {
  readonly kind: 'transaction';
  readonly name: string;
  readonly connection: ConnectionRef;
  /** Inner steps run in order on one client; they have no `connection` of their own. */
  readonly steps: readonly SqlStepSpec[];
  /** Transaction-level catches; inner steps may carry their own. Either way the transaction rolls back first. */
  readonly catches: readonly CatchSpec[];
}

// ---------------------------------------------------------------- lower: block -> spec

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
