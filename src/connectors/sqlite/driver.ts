/**
 * `node:sqlite`, the engine built into Node.js (svc needs 22.16 or later: src/manifest/
 * sqlite-support.ts), loaded by the first sqlite connection, never by a process without one.
 *
 * Node prints an ExperimentalWarning ("SQLite is an experimental feature...") when the module is
 * first loaded: svc asked for that engine knowingly, so exactly that warning is dropped while the
 * module loads; every other warning, then and later, is printed as usual.
 *
 * The types are written here (what svc uses of the module): @types/node follows the oldest supported
 * line, which has no node:sqlite.
 */

export interface SqliteColumn {
  readonly name: string;
  /** The declared type of the column the value comes from (`INTEGER`, `boolean`...), null for an expression. */
  readonly type: string | null;
  readonly column: string | null;
  readonly table: string | null;
  /** The schema of that table (`main`, an attached one's name), null for an expression. */
  readonly database: string | null;
}

export interface SqliteRunResult {
  readonly changes: number | bigint;
  readonly lastInsertRowid: number | bigint;
}

export interface SqliteStatement {
  all(...values: unknown[]): Record<string, unknown>[];
  get(...values: unknown[]): Record<string, unknown> | undefined;
  run(...values: unknown[]): SqliteRunResult;
  iterate(...values: unknown[]): IterableIterator<Record<string, unknown>>;
  columns(): SqliteColumn[];
  setReadBigInts(enabled: boolean): void;
  /** Rows as arrays in column order instead of objects (Node.js 22.16 and later): `all`, `get` and `iterate` then give arrays. */
  setReturnArrays(enabled: boolean): void;
}

/** A statement whose rows are arrays in column order (`setReturnArrays(true)` was called on it). */
export interface SqliteArrayStatement extends Pick<SqliteStatement, 'run' | 'columns'> {
  all(...values: unknown[]): unknown[][];
  iterate(...values: unknown[]): IterableIterator<unknown[]>;
}

export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  close(): void;
  readonly isOpen?: boolean;
}

export interface SqliteDatabaseOptions {
  readonly open?: boolean;
  readonly readOnly?: boolean;
  readonly enableForeignKeyConstraints?: boolean;
  readonly timeout?: number;
}

export interface SqliteModule {
  readonly DatabaseSync: new (path: string, options?: SqliteDatabaseOptions) => SqliteDatabase;
}

/** The module's name, in a variable: TypeScript has no declaration for it (see above). */
const MODULE = 'node:sqlite';

let loading: Promise<SqliteModule> | undefined;

/** The module, loaded once. Rejects on a Node.js without it (the manifest check says so first). */
export function loadSqlite(): Promise<SqliteModule> {
  loading ??= importQuietly();
  return loading;
}

async function importQuietly(): Promise<SqliteModule> {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]): void {
    if (isSqliteExperimentalWarning(warning, rest[0])) return;
    // biome-ignore lint/suspicious/noExplicitAny: the overloads of emitWarning, passed through as given
    (emitWarning as (...args: any[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return (await import(MODULE)) as SqliteModule;
  } finally {
    process.emitWarning = emitWarning;
  }
}

function isSqliteExperimentalWarning(warning: string | Error, typeOrOptions: unknown): boolean {
  const type = typeof typeOrOptions === 'string' ? typeOrOptions : (typeOrOptions as { type?: unknown } | undefined)?.type;
  const name = warning instanceof Error ? warning.name : type;
  const message = warning instanceof Error ? warning.message : warning;
  return name === 'ExperimentalWarning' && /^SQLite is an experimental feature/.test(message);
}
