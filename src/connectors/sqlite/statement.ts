/**
 * Statements on one connection: prepared once per text and kept (a manifest has a bounded number of
 * texts), run to a SqlResult. A statement that returns columns (SELECT, or INSERT ... RETURNING) is
 * read with `all`, its row count the rows it gave; any other is `run`, its row count the rows it
 * changed.
 */
import type { SqlResult } from '../sql-types.js';
import type { SqliteArrayStatement, SqliteDatabase } from './driver.js';
import { rowReader, toSqliteValue, type RowReader } from './values.js';

export interface Prepared {
  readonly statement: SqliteArrayStatement;
  readonly read: RowReader;
  readonly returnsRows: boolean;
  readonly command: string;
  readonly fields: readonly { readonly name: string }[];
}

/** Texts past this many on one connection start the cache again (a bound, not expected to be met). */
const CACHE_LIMIT = 1000;

export class StatementCache {
  private readonly cache = new Map<string, Prepared>();

  constructor(readonly db: SqliteDatabase) {}

  get(text: string): Prepared {
    let prepared = this.cache.get(text);
    if (prepared === undefined) {
      prepared = prepare(this.db, text);
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(text, prepared);
    }
    return prepared;
  }
}

/** A statement prepared for svc's values: INTEGERs read exactly, rows read as the column types say. */
export function prepare(db: SqliteDatabase, text: string): Prepared {
  const prepared = db.prepare(text);
  prepared.setReadBigInts(true);
  prepared.setReturnArrays(true);
  const statement = prepared as unknown as SqliteArrayStatement;
  const columns = statement.columns();
  return {
    statement,
    read: rowReader(columns),
    returnsRows: columns.length > 0,
    command: commandOf(text),
    fields: columns.map((c) => ({ name: c.name })),
  };
}

export function bind(values: readonly unknown[] | undefined): unknown[] {
  return values === undefined ? [] : values.map(toSqliteValue);
}

export function execute<Row>(prepared: Prepared, values: readonly unknown[] | undefined): SqlResult<Row> {
  const bound = bind(values);
  if (prepared.returnsRows) {
    const rows = prepared.statement.all(...bound).map((row) => prepared.read(row)) as Row[];
    return { rows, rowCount: rows.length, command: prepared.command, fields: prepared.fields };
  }
  const { changes } = prepared.statement.run(...bound);
  return { rows: [], rowCount: Number(changes), command: prepared.command, fields: [] };
}

/** The statement's first word, as PostgreSQL names a command (`SELECT`, `INSERT`...). */
function commandOf(text: string): string {
  const word = /^(?:\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*([A-Za-z]+)/.exec(text)?.[1];
  return word === undefined ? '' : word.toUpperCase();
}

/** Whether a text may be a read, tried on the read connection first (a write there fails untouched: SQLITE_READONLY). */
export function mayRead(text: string): boolean {
  const command = commandOf(text);
  return command === 'SELECT' || command === 'WITH' || command === 'VALUES';
}
