/**
 * The database `svc check --database name=mysql://...` describes statements on (./describe.ts):
 * one connection of its own, no pool, closed after.
 *
 * MySQL and MariaDB commit DDL implicitly: a migration cannot be applied in a transaction and
 * rolled back, as the PostgreSQL and SQLite checks do. So when the connection's migrations hold
 * files the database has not recorded, the statements are described in a scratch database made
 * for the check on the same server (`svc_check_<random>`), with every migration file applied, and
 * dropped after, whatever happened: the user's database is never written to. That needs the right
 * to create a database; without it the check says so (apply the migrations first, or grant it).
 * When nothing is pending, the statements are described on the database itself.
 */
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2';
import { describeCause } from '../errors.js';
import { MIGRATIONS_TABLE, MigrationError, readMigrations, type MigrationFile } from '../postgres/migrations.js';
import type { StatementReport } from '../sql-types.js';
import { describeMysqlStatements } from './describe.js';
import { mysqlTargetOfUrl } from './target.js';

/** How long the check waits for the server's handshake. */
const CONNECT_TIMEOUT_MS = 10_000;

export async function describeOnMysqlDatabase(url: string, migrations: string | undefined, statements: readonly string[]): Promise<StatementReport[]> {
  const target = mysqlTargetOfUrl(url);
  const connection = mysql.createConnection({
    host: target.host,
    port: target.port,
    ...(target.user !== undefined ? { user: target.user } : {}),
    ...(target.password !== undefined ? { password: target.password } : {}),
    ...(target.database !== undefined ? { database: target.database } : {}),
    connectTimeout: CONNECT_TIMEOUT_MS,
    multipleStatements: true,
    supportBigNumbers: true,
    dateStrings: true,
  });
  // A connection lost between two statements surfaces as the next one's rejection.
  connection.on('error', () => {});
  const run = <T = unknown>(sql: string, values?: unknown[]): Promise<T> =>
    new Promise((resolve, reject) => connection.query(sql, values, (error, rows) => (error ? reject(error) : resolve(rows as T))));
  try {
    const files = migrations === undefined ? [] : await readMigrations(migrations);
    if ((await pendingOf(run, files)).length === 0) return await describeMysqlStatements(connection, statements);
    const scratch = `svc_check_${randomBytes(6).toString('hex')}`;
    try {
      await run(`CREATE DATABASE ${scratch}`);
    } catch (error) {
      throw new Error(
        `the migrations hold files the database has not recorded, which MySQL cannot apply and undo (DDL commits), and a scratch database to apply them in could not be created: ${describeCause(error)}. Apply the migrations first, or grant CREATE and DROP`,
      );
    }
    try {
      await run(`USE ${scratch}`);
      for (const file of files) await apply(run, file);
      return await describeMysqlStatements(connection, statements);
    } finally {
      await run(`DROP DATABASE IF EXISTS ${scratch}`).catch(() => {});
    }
  } finally {
    connection.destroy();
  }
}

type Run = <T = unknown>(sql: string, values?: unknown[]) => Promise<T>;

/** The migration files the database has not recorded (all of them when it has no record). */
async function pendingOf(run: Run, files: readonly MigrationFile[]): Promise<MigrationFile[]> {
  if (files.length === 0) return [];
  const [table] = await run<unknown[]>('SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?', [MIGRATIONS_TABLE]);
  if (table === undefined) return [...files];
  const recorded = new Set((await run<{ name: string }[]>(`SELECT name FROM ${MIGRATIONS_TABLE}`)).map((r) => r.name));
  return files.filter((f) => !recorded.has(f.name));
}

async function apply(run: Run, file: MigrationFile): Promise<void> {
  try {
    await run(file.sql);
  } catch (error) {
    throw new MigrationError(`migration ${file.path} failed: ${describeCause(error)}`, file.path, error);
  }
}
