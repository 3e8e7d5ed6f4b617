/**
 * The database `svc check --database name=sqlite:...` describes statements on (./describe.ts),
 * without copying it and without leaving anything in it:
 *
 * - `sqlite::memory:`: a new empty database, every migration applied;
 * - `sqlite:<file>` (an existing file: the check never creates one): opened read-only when the
 *   migrations it has recorded are all there are; otherwise opened for writing, the pending files
 *   applied inside one transaction (SQLite's DDL is transactional), the statements described there,
 *   and the transaction rolled back: nothing is recorded, the file keeps its schema. While that
 *   transaction is open it holds the file's write lock, so a server writing to the file waits (up
 *   to its busy_timeout) for the check's few milliseconds; the check itself waits up to
 *   CHECK_BUSY_MS for a writer to finish.
 */
import { describeCause } from '../errors.js';
import { MIGRATIONS_TABLE, MigrationError, readMigrations, type MigrationFile } from '../postgres/migrations.js';
import { transactionControl } from '../postgres/transaction-control.js';
import type { StatementReport } from '../sql-types.js';
import { sqliteCheckFile, sqliteUncheckable } from './check-target.js';
import { describeSqliteStatements } from './describe.js';
import { loadSqlite, type SqliteDatabase } from './driver.js';

/** How long the check waits for the file's lock when a process is writing. */
const CHECK_BUSY_MS = 5000;

export async function describeOnSqliteDatabase(url: string, migrations: string | undefined, statements: readonly string[]): Promise<StatementReport[]> {
  const why = sqliteUncheckable(url);
  if (why !== undefined) throw new Error(why);
  const { DatabaseSync } = await loadSqlite();
  const file = sqliteCheckFile(url);
  const files = migrations === undefined ? [] : await readMigrations(migrations);
  if (file !== undefined) {
    const reader = new DatabaseSync(file, { readOnly: true, timeout: CHECK_BUSY_MS });
    try {
      const pending = pendingOf(reader, files);
      if (pending.length === 0) return describeSqliteStatements(reader, statements);
    } finally {
      reader.close();
    }
  }
  const db = new DatabaseSync(file ?? ':memory:', { enableForeignKeyConstraints: true, timeout: CHECK_BUSY_MS });
  try {
    db.exec('BEGIN');
    try {
      for (const migration of pendingOf(db, files)) apply(db, migration);
      return describeSqliteStatements(db, statements);
    } finally {
      // Always: nothing of the check may stay in the file.
      try {
        db.exec('ROLLBACK');
      } catch {
        // A failed statement may have ended the transaction already.
      }
    }
  } finally {
    db.close();
  }
}

/** The migration files the database has not recorded. */
function pendingOf(db: SqliteDatabase, files: readonly MigrationFile[]): MigrationFile[] {
  if (files.length === 0) return [];
  const table = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1`).get(MIGRATIONS_TABLE);
  if (table === undefined) return [...files];
  const recorded = new Set((db.prepare(`SELECT name FROM ${MIGRATIONS_TABLE}`).all() as { name: string }[]).map((r) => r.name));
  return files.filter((f) => !recorded.has(f.name));
}

function apply(db: SqliteDatabase, file: MigrationFile): void {
  const control = transactionControl(file.sql);
  if (control !== undefined) {
    throw new MigrationError(
      `migration ${file.path} holds "${control}": it would end the check's transaction and commit into the database, so it is not applied (a migration runs in a transaction of svc's and must not hold its own)`,
      file.path,
    );
  }
  try {
    db.exec(file.sql);
  } catch (error) {
    throw new MigrationError(`migration ${file.path} failed: ${describeCause(error)}`, file.path, error);
  }
}
