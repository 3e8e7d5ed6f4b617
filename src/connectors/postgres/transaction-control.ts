/**
 * Whether SQL text holds a statement that ends or starts a transaction (COMMIT, ROLLBACK, BEGIN...):
 * a migration applied by `svc check --database` runs inside the check's transaction, which must be
 * rolled back whatever the file says. Such a file would commit what came before it into the user's
 * database, so the check refuses to apply it. Statements are split on semicolons outside strings,
 * quoted identifiers, comments and dollar-quoted bodies (a function body's COMMIT is not one).
 */

const CONTROL = /^(?:commit|end|rollback|abort|begin|start\s+transaction|prepare\s+transaction)\b/i;

/** The first transaction-control statement of `sql`, as written, or undefined. */
export function transactionControl(sql: string): string | undefined {
  for (const statement of statements(sql)) {
    const text = statement.trim();
    const match = CONTROL.exec(text);
    if (match) return text.split('\n')[0]!.slice(0, 60);
  }
  return undefined;
}

/** The statements of `sql` with their comments blanked out. */
function statements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < n && sql[j] !== c) j++;
      current += sql.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? n : end;
      current += ' ';
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      current += ' ';
    } else if (c === '$' && /^\$[A-Za-z_]*\$/.test(sql.slice(i, i + 64))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i, i + 64))![0];
      const end = sql.indexOf(tag, i + tag.length);
      const stop = end < 0 ? n : end + tag.length;
      current += sql.slice(i, stop);
      i = stop;
    } else if (c === ';') {
      out.push(current);
      current = '';
      i++;
    } else {
      current += c;
      i++;
    }
  }
  out.push(current);
  return out;
}
