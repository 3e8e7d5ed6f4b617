/**
 * Statements described by SQLite without running them (`svc check --database`, `check_queries =
 * true`; docs/sqlite.md "Checking queries"): each is prepared, which parses it and resolves every
 * table and column it names, and never stepped, so nothing of it runs.
 *
 * - A refusal is the prepare's error: SQLite's message and result code, located in the text from
 *   the word the message names (../refusal-position.ts; node:sqlite has no error offset).
 * - The columns come from `StatementSync.columns()` (Node 22.16+, 23.11+): each one's name, the
 *   declared type of the table column it comes from, and that column. The type gives the schema
 *   (./column-types.ts); the column's NOT NULL (`pragma_table_info`) its nullability, except under
 *   an outer join or a UNION, whose rows may be null where the column is not. A Node without
 *   `columns()` can still tell a refusal, not the columns: they are reported unknown.
 */
import { identifierPosition } from '../refusal-position.js';
import type { ColumnDescription, StatementError, StatementReport } from '../sql-types.js';
import { sqliteColumnSchema } from './column-types.js';
import type { SqliteColumn, SqliteDatabase, SqliteStatement } from './driver.js';
import { errcodeOf } from './errors.js';
import { resultCode } from './result-codes.js';

/** Statements whose rows may be null where their origin column is NOT NULL. */
const NULLABLE_ORIGINS = /\b(?:left|right|full)\s+(?:outer\s+)?join\b|\bunion\b/i;

/** Describes `statements` (`?n` texts) on `db`; throws only what is not a refusal of the statement. */
export function describeSqliteStatements(db: SqliteDatabase, statements: readonly string[]): StatementReport[] {
  const notNull = notNullColumns(db);
  return statements.map((text): StatementReport => {
    let statement: SqliteStatement;
    try {
      statement = db.prepare(text);
    } catch (error) {
      const errcode = errcodeOf(error);
      if (errcode === undefined) throw error;
      return { ok: false, error: refusal(text, (error as Error).message, resultCode(errcode).name) };
    }
    // Node lines before 22.16 have no columns(): the statement is accepted, its columns unknown.
    if (typeof statement.columns !== 'function') return { ok: true, columns: undefined };
    const columns = statement.columns();
    if (columns.length === 0) return { ok: true, columns: undefined };
    const originsHold = !NULLABLE_ORIGINS.test(text);
    return { ok: true, columns: columns.map((c) => describeColumn(c, originsHold && notNull(c))) };
  });
}

function describeColumn(column: SqliteColumn, notNull: boolean): ColumnDescription {
  return {
    name: column.name,
    schema: sqliteColumnSchema(column.type),
    ...(column.type !== null ? { type: column.type } : {}),
    notNull,
  };
}

/** Whether a column's origin is a table column that cannot be null, asked once per table. */
function notNullColumns(db: SqliteDatabase): (column: SqliteColumn) => boolean {
  const tables = new Map<string, Set<string>>();
  return (column) => {
    if (column.table === null || column.column === null) return false;
    const database = column.database ?? 'main';
    const key = `${database}.${column.table}`;
    let set = tables.get(key);
    if (set === undefined) {
      set = new Set();
      const rows = db.prepare('SELECT name, type, "notnull" AS not_null, pk FROM pragma_table_info(?1, ?2)').all(column.table, database) as {
        name: string;
        type: string;
        not_null: number | bigint;
        pk: number | bigint;
      }[];
      const keyColumns = rows.filter((r) => Number(r.pk) > 0);
      for (const row of rows) {
        // An INTEGER PRIMARY KEY is the rowid, which is never null (other keys of a rowid table may be).
        const rowid = keyColumns.length === 1 && Number(row.pk) === 1 && row.type.toUpperCase() === 'INTEGER';
        if (Number(row.not_null) === 1 || rowid) set.add(row.name.toLowerCase());
      }
      tables.set(key, set);
    }
    return set.has(column.column.toLowerCase());
  };
}

/** SQLite's message, located from the word it names. */
function refusal(text: string, message: string, code: string): StatementError {
  const named = /^(?:no such (?:column|table|function): |near "([^"]*)": syntax error)(.*)$/s.exec(message);
  const word = named === null ? undefined : (named[1] ?? named[2]);
  const position = word === undefined ? undefined : identifierPosition(text, word.trim());
  return { message, code, ...(position !== undefined ? { position } : {}) };
}
