/** `sql "<name>"`: a query on a postgres connection (or its transaction's client). */
import { defineStepKind, NAMED_STEP } from '../definition.js';
import { SQL_CODES } from './codes.js';
import { lower } from './lower.js';
import { compileSql } from './node.js';
import type { SqlStepSpec } from './spec.js';

export type { SqlStepSpec } from './spec.js';
export { sqlStatements, type SqlStatement } from './statements.js';
export { refusedStatement, type RefusalReason } from './statement-report.js';

export const sqlStep = defineStepKind<SqlStepSpec>({
  kind: 'sql',
  continuable: true,
  blocks: { sql: NAMED_STEP },
  lower,
  codes: SQL_CODES,
  outputs: (spec) => (spec.stream || spec.listen ? ['stream'] : ['row', 'rows', 'rows_affected']),
  outputsHint: (spec) => (spec.listen ? 'it listens: listen = <channel>' : spec.stream ? 'it streams: stream = true' : undefined),
  statuses: (spec) => spec.catches.map((c) => c.status),
  failures: [400, 503, 504],
  compile: compileSql,
});
