/**
 * `migrations = "<dir>"` (DECISIONS.md §1): the directory's `*.sql` files, applied once each in name
 * order when the connection opens, each in its own transaction, recorded in `svc_migrations`.
 *
 * A recorded file changed since is a boot error (re-running it or not would both be wrong). Replicas
 * booting together queue on a transaction-level advisory lock (it works through a pooler in
 * transaction mode, `lockedTransaction`) and read the record again under it. A file is one
 * simple-protocol query: several statements, but no BEGIN/COMMIT or CREATE INDEX CONCURRENTLY.
 */
import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import { readRegularFile } from '../../manifest/index.js';
import { describeCause } from '../errors.js';
import type { ConnectorLogger } from '../types.js';

export const MIGRATIONS_TABLE = 'svc_migrations';
/**
 * The bound of one migration file, read whole into memory at boot: far above a schema change, room
 * for a seed file. Over it, or not a regular file (a FIFO or device in its place), is a boot error.
 */
export const MAX_MIGRATION_FILE_BYTES = 64 * 1024 * 1024;
/** An arbitrary constant shared by every svc process: the bytes of "svc-migr" as a bigint. */
const LOCK_KEY = '8319946408373872498';

export interface MigrationFile {
  readonly name: string;
  readonly path: string;
  readonly sql: string;
  readonly checksum: string;
}

/** A boot failure of the migrations; its message names the file. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
  constructor(
    message: string,
    /** The file, when one is at fault. */
    readonly file: string | undefined,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/**
 * The files not recorded yet, in their order, once every recorded one is checked unchanged: the
 * first read of each engine's migrations (PostgreSQL, SQLite, MySQL), before any file is applied.
 */
export function pendingMigrations(files: readonly MigrationFile[], recorded: ReadonlyMap<string, string>): MigrationFile[] {
  for (const file of files) {
    const checksum = recorded.get(file.name);
    if (checksum !== undefined) checkUnchanged(file, checksum);
  }
  return files.filter((file) => !recorded.has(file.name));
}

/** A recorded file read again (under each engine's lock) must still be the file that was applied. */
export function checkUnchanged(file: MigrationFile, checksum: string): void {
  if (checksum === file.checksum) return;
  throw new MigrationError(
    `migration ${file.path} was changed after it was applied (recorded checksum ${checksum.slice(0, 12)}…, now ${file.checksum.slice(0, 12)}…); add a new file instead`,
    file.path,
  );
}

/** The directory's `*.sql` files in name order (code points, so `010_` sorts after `009_`). */
export async function readMigrations(dir: string): Promise<MigrationFile[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new MigrationError(`migrations directory ${dir} cannot be read: ${describeCause(error)}`, undefined, error);
  }
  const names = entries
    .filter((e) => e.isFile() && e.name.endsWith('.sql'))
    .map((e) => e.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Promise.all(
    names.map(async (name) => {
      const path = join(dir, name);
      const read = await readRegularFile(path, MAX_MIGRATION_FILE_BYTES);
      if (!read.ok) {
        const why = read.kind === 'io' ? `cannot be read: ${read.problem}` : read.problem;
        throw new MigrationError(`migration ${path} ${why}`, path);
      }
      const sql = read.bytes.toString('utf8');
      return { name, path, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/**
 * Applies the files not yet recorded; answers their names. Runs on one client of its own, each step
 * in a transaction that first lifts the connection's statement_timeout (a migration may be long) and
 * takes the transaction-level advisory lock (see `lockedTransaction`).
 */
export async function applyMigrations(pool: pg.Pool, dir: string, key: string, logger: ConnectorLogger | undefined): Promise<string[]> {
  const files = await readMigrations(dir);
  const client = await pool.connect();
  // A connection lost between two statements surfaces as the next query's rejection; without a
  // listener pg's 'error' event would end the process first.
  client.on('error', () => {});
  let whole = false;
  try {
    const recorded = await lockedTransaction(client, async () => {
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const rows = (await client.query<{ name: string; checksum: string }>(`SELECT name, checksum FROM ${MIGRATIONS_TABLE}`)).rows;
      return new Map(rows.map((row) => [row.name, row.checksum]));
    });
    const applied: string[] = [];
    for (const file of pendingMigrations(files, recorded)) {
      const started = performance.now();
      if (!(await applyOne(client, file))) continue;
      applied.push(file.name);
      logger?.info({ connection: key, migration: file.name, ms: Math.round(performance.now() - started) }, 'migration applied');
    }
    whole = true;
    return applied;
  } finally {
    // Nothing of the migrations outlives their transactions, so a client that saw no failure goes
    // back to the pool; after one, it may still be in a failed transaction: destroyed.
    client.release(whole ? undefined : true);
  }
}

/**
 * One transaction holding the migrations' lock. Lock (`pg_advisory_xact_lock`) and time-out
 * (`SET LOCAL`) end with the transaction: through a pooler in transaction mode a session-level lock or
 * `SET` would stay on a server connection that then serves someone else. Replicas queue on it.
 */
async function lockedTransaction<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`);
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/**
 * Applies one file and records it, in one locked transaction; false when another replica applied
 * it since the first read (the record, read again under the lock, decides).
 */
async function applyOne(client: pg.PoolClient, file: MigrationFile): Promise<boolean> {
  try {
    return await lockedTransaction(client, async () => {
      const now = await client.query<{ checksum: string }>(`SELECT checksum FROM ${MIGRATIONS_TABLE} WHERE name = $1`, [file.name]);
      const row = now.rows[0];
      if (row !== undefined) {
        checkUnchanged(file, row.checksum);
        return false;
      }
      await client.query(file.sql);
      await client.query(`INSERT INTO ${MIGRATIONS_TABLE} (name, checksum) VALUES ($1, $2)`, [file.name, file.checksum]);
      return true;
    });
  } catch (error) {
    if (error instanceof MigrationError) throw error;
    throw new MigrationError(`migration ${file.path} failed: ${describeCause(error)}`, file.path, error);
  }
}
