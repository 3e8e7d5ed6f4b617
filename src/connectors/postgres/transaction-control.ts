/**
 * Whether SQL text holds a statement that ends or starts a transaction (COMMIT, ROLLBACK, BEGIN...):
 * a migration applied by `svc check --database` runs inside the check's transaction, which must be
 * rolled back whatever the file says. Such a file would commit what came before it into the user's
 * database, so the check refuses to apply it. Statements are split on semicolons outside strings,
 * quoted identifiers, comments and dollar-quoted bodies (a function body's COMMIT is not one).
 */
import { sqlSegments, type SqlSegmentOptions } from '../sql-segments.js';

const CONTROL = /^(?:commit|end|rollback|abort|begin|start\s+transaction|prepare\s+transaction)\b/i;

/**
 * The first transaction-control statement of `sql`, as written, or undefined. `nestedComments` for
 * PostgreSQL, whose block comments nest (../sql-segments.ts).
 */
export function transactionControl(sql: string, options: SqlSegmentOptions = {}): string | undefined {
  for (const statement of statements(sql, options)) {
    const text = statement.trim();
    const match = CONTROL.exec(text);
    if (match) return text.split('\n')[0]!.slice(0, 60);
  }
  return undefined;
}

/** The statements of `sql` (split on the semicolons of its code) with their comments blanked out. */
function statements(sql: string, options: SqlSegmentOptions): string[] {
  const out: string[] = [];
  let current = '';
  for (const segment of sqlSegments(sql, options)) {
    const text = sql.slice(segment.start, segment.end);
    if (segment.kind === 'comment') {
      current += ' ';
      continue;
    }
    if (segment.kind !== 'code') {
      current += text;
      continue;
    }
    const [first, ...rest] = text.split(';');
    current += first;
    for (const part of rest) {
      out.push(current);
      current = part;
    }
  }
  out.push(current);
  return out;
}
