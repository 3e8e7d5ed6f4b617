/**
 * `migrations = "<dir>"` on SQLite, as on PostgreSQL (../postgres/migrations.ts reads the files):
 * the `*.sql` files in name order, each applied once in its own transaction, recorded in
 * `svc_migrations` (name, checksum, applied_at); a recorded file that changed is a boot error.
 *
 * The lock: every transaction of the migrations is `BEGIN IMMEDIATE`, which takes the database's
 * one write lock, and reads the record again under it. Two processes booting on one file thus apply
 * each migration once: the second waits for the lock (without blocking its loop, ./busy.ts, up to
 * the longer of the busy time-out and a minute, since another's migration may be long), then finds
 * the file recorded. A file may hold several statements (run with `exec`); not its own
 * BEGIN/COMMIT.
 */
import { describeCause } from '../errors.js';
import { checkUnchanged, MIGRATIONS_TABLE, MigrationError, pendingMigrations, readMigrations } from '../postgres/migrations.js';
import type { ConnectorLogger } from '../types.js';
import { retryWhileBusy } from './busy.js';
import type { SqliteDatabase } from './driver.js';
import type { SqliteResource } from './resource.js';

/** How long a booting process waits for another's migrations at least. */
const MIGRATION_LOCK_WAIT_MS = 60_000;

export async function applySqliteMigrations(resource: SqliteResource, dir: string, logger: ConnectorLogger | undefined): Promise<string[]> {
  const files = await readMigrations(dir);
  const db = resource.write.db;
  const wait = Math.max(resource.busyTimeoutMs, MIGRATION_LOCK_WAIT_MS);
  const locked = <T>(work: () => T): Promise<T> => lockedTransaction(db, work, wait, resource);
  const recorded = await locked(() => {
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))`,
    );
    const rows = db.prepare(`SELECT name, checksum FROM ${MIGRATIONS_TABLE}`).all() as { name: string; checksum: string }[];
    return new Map(rows.map((row) => [row.name, row.checksum]));
  });
  const applied: string[] = [];
  for (const file of pendingMigrations(files, recorded)) {
    const started = performance.now();
    let done: boolean;
    try {
      done = await locked(() => {
        const row = db.prepare(`SELECT checksum FROM ${MIGRATIONS_TABLE} WHERE name = ?`).get(file.name) as { checksum: string } | undefined;
        if (row !== undefined) {
          checkUnchanged(file, row.checksum);
          return false;
        }
        db.exec(file.sql);
        db.prepare(`INSERT INTO ${MIGRATIONS_TABLE} (name, checksum) VALUES (?, ?)`).run(file.name, file.checksum);
        return true;
      });
    } catch (error) {
      if (error instanceof MigrationError) throw error;
      throw new MigrationError(`migration ${file.path} failed: ${describeCause(error)}`, file.path, error);
    }
    if (!done) continue;
    applied.push(file.name);
    logger?.info({ connection: resource.where.key, migration: file.name, ms: Math.round(performance.now() - started) }, 'migration applied');
  }
  return applied;
}

/** `work` between BEGIN IMMEDIATE (waited for while another process writes) and COMMIT; rolled back when it throws. */
async function lockedTransaction<T>(db: SqliteDatabase, work: () => T, waitMs: number, resource: SqliteResource): Promise<T> {
  await retryWhileBusy(() => db.exec('BEGIN IMMEDIATE'), waitMs, resource.where.key, resource.where.label);
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // SQLite ended the transaction itself.
    }
    throw error;
  }
}
