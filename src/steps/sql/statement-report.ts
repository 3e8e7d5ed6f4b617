/**
 * A statement the database refused, as a diagnostic at the place of the error inside the query
 * (`svc check --database`, `check_queries = true`): the server's message, SQLSTATE, detail and hint,
 * located through ./query-position.ts when the server gives a position, else on the query.
 */
import { codeIn, type Diagnostic, type Pos, type Range } from '../../diag/index.js';
import { SQL_CODES } from './codes.js';
import { statementPosition } from './query-position.js';
import type { SqlStatement } from './statements.js';

/** The server's error response (src/connectors `StatementError`). */
export interface RefusalReason {
  readonly message: string;
  readonly code?: string;
  readonly position?: number;
  readonly detail?: string;
  readonly hint?: string;
}

export function refusedStatement(statement: SqlStatement, reason: RefusalReason, sources: ReadonlyMap<string, string>, database: string): Diagnostic {
  const { step } = statement;
  const subject = errorRange(statement, reason, sources) ?? step.queryRange ?? step.range;
  const lines = [
    `The database refused the query of sql "${step.name}": ${reason.message}${reason.code ? ` (${/^SQLITE_/.test(reason.code) ? '' : 'SQLSTATE '}${reason.code})` : ''}. Checked on ${database}.`,
  ];
  if (reason.detail) lines.push(reason.detail);
  if (reason.hint) lines.push(`Hint: ${reason.hint}`);
  const summary = 'Query refused by the database';
  // Reported after the model is built, outside the sql block's scope: the code is set here.
  const code = codeIn(SQL_CODES, summary);
  return {
    severity: 'error',
    summary,
    ...(code !== undefined ? { code } : {}),
    detail: lines.join('\n'),
    ...(subject ? { subject } : {}),
    ...(step.queryRange ? { context: step.queryRange } : {}),
    ...(step.blockPath ? { path: step.blockPath } : {}),
  };
}

/** The one character the server points at, in the manifest. */
function errorRange(statement: SqlStatement, reason: RefusalReason, sources: ReadonlyMap<string, string>): Range | undefined {
  const at = errorPosition(statement, reason.position, sources);
  if (at === undefined) return undefined;
  const end: Pos = { line: at.line, column: at.column + 1, byte: at.byte + 1 };
  return { filename: statement.step.queryRange!.filename, start: at, end };
}

/** Where the server's `position` is in the manifest, when it gives one and the source is known. */
export function errorPosition(
  statement: Pick<SqlStatement, 'step'> & Partial<Pick<SqlStatement, 'placeholders'>>,
  position: number | undefined,
  sources: ReadonlyMap<string, string>,
): Pos | undefined {
  const { step } = statement;
  if (position === undefined || step.queryRange === undefined) return undefined;
  const text = sources.get(step.queryRange.filename);
  if (text === undefined) return undefined;
  return statementPosition(step.query, step.parameters, position, { range: step.queryRange, text }, statement.placeholders);
}
