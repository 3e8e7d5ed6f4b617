/**
 * `migrations = "<dir>"` on a mysql connection: the PostgreSQL connector's rules
 * (../postgres/migrations.ts: `*.sql` files in name order, applied once each, recorded with their
 * sha-256 in `svc_migrations`, a changed file a boot error naming it), with MySQL's means:
 *
 * - Replicas booting together queue on a named lock, `GET_LOCK('svc_migrations', timeout)`, held
 *   by the migrations' one connection from the first read of the record to the last file, and
 *   released with `RELEASE_LOCK` (a lock is the session's: it also ends with the connection). The
 *   record is read under the lock, so each file is applied by one replica, the others finding it
 *   recorded.
 * - A file may hold several statements (the connection is opened with `multipleStatements`). MySQL
 *   commits DDL (CREATE, ALTER, DROP) implicitly, so a file is not atomic there: it runs in a
 *   transaction with its record, which makes its DML and the record one unit, but a file that fails
 *   after a DDL statement leaves that statement applied. One DDL statement per file is the safe form.
 * - The connection's `statement_timeout` does not apply: the migrations' connection is not pooled
 *   and sets no `max_statement_time`.
 */
import { describeCause } from '../errors.js';
import { MIGRATIONS_TABLE, MigrationError, pendingMigrations, readMigrations } from '../postgres/migrations.js';
import type { ConnectorLogger } from '../types.js';
import type { MysqlResource } from './resource.js';

const LOCK = 'svc_migrations';
/** How long a replica waits for another's migrations (seconds, GET_LOCK's unit). */
const LOCK_WAIT_SECONDS = 600;

export async function applyMysqlMigrations(resource: MysqlResource, dir: string, logger: ConnectorLogger | undefined): Promise<string[]> {
  const files = await readMigrations(dir);
  const connection = resource.connect({ ...resource.killOptions, multipleStatements: true });
  // A connection lost between two statements surfaces as the next one's rejection.
  connection.on('error', () => {});
  const run = <T = unknown>(sql: string, values?: unknown[]): Promise<T> =>
    new Promise((resolve, reject) => connection.query(sql, values, (error, rows) => (error ? reject(error) : resolve(rows as T))));
  try {
    const [{ locked }] = await run<{ locked: number | null }[]>('SELECT GET_LOCK(?, ?) AS locked', [LOCK, LOCK_WAIT_SECONDS]);
    if (locked !== 1) throw new MigrationError(`migrations: another process held the lock ${LOCK} for ${LOCK_WAIT_SECONDS} s`, undefined);
    await run(
      `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (name VARCHAR(255) PRIMARY KEY, checksum CHAR(64) NOT NULL, applied_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3))`,
    );
    const rows = await run<{ name: string; checksum: string }[]>(`SELECT name, checksum FROM ${MIGRATIONS_TABLE}`);
    const recorded = new Map(rows.map((row) => [row.name, row.checksum]));
    const applied: string[] = [];
    for (const file of pendingMigrations(files, recorded)) {
      const started = performance.now();
      try {
        await run('START TRANSACTION');
        await run(file.sql);
        await run(`INSERT INTO ${MIGRATIONS_TABLE} (name, checksum) VALUES (?, ?)`, [file.name, file.checksum]);
        await run('COMMIT');
      } catch (error) {
        await run('ROLLBACK').catch(() => {});
        throw new MigrationError(`migration ${file.path} failed: ${describeCause(error)}`, file.path, error);
      }
      applied.push(file.name);
      logger?.info({ connection: resource.where.key, migration: file.name, ms: Math.round(performance.now() - started) }, 'migration applied');
    }
    await run('SELECT RELEASE_LOCK(?)', [LOCK]);
    return applied;
  } catch (error) {
    if (error instanceof MigrationError) throw error;
    throw new MigrationError(`migrations could not be applied: ${describeCause(error)}`, undefined, error);
  } finally {
    // Ending the connection also lifts the lock if an error left it held.
    connection.destroy();
  }
}
