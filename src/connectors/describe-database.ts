/**
 * `svc check --database` and `svc openapi --database`: a SQL connection's statements described on a
 * database named by URL, whatever its engine (docs/postgresql.md "Checking queries against the
 * database", docs/sqlite.md and docs/mysql.md "Checking queries"). Each engine's driver is loaded
 * only when its URL is checked.
 */
import type { SqlKind } from '../model/index.js';
import { checkableDatabaseUrl, describeOnDatabase as describeOnPostgres } from './postgres/index.js';
import type { StatementReport } from './sql-types.js';
import { sqliteUncheckable } from './sqlite/check-target.js';

/** The URL schemes of each SQL engine. */
const SCHEMES: Readonly<Record<SqlKind, RegExp>> = {
  postgres: /^(?:postgres(?:ql)?:\/\/|pglite:)/,
  sqlite: /^sqlite:/,
  mysql: /^(?:mysql|mariadb):\/\//,
};

/** The engine a URL is for, by its scheme. */
export function sqlKindOfUrl(url: string): SqlKind | undefined {
  return (Object.keys(SCHEMES) as SqlKind[]).find((kind) => SCHEMES[kind].test(url));
}

/** Why the statements of a `kind` connection cannot be checked on `url`, or undefined when they can. */
export function uncheckableReason(kind: SqlKind, url: string): string | undefined {
  const given = sqlKindOfUrl(url);
  if (given !== kind) return `the connection is ${kind}: give ${WHAT[kind]}`;
  if (kind === 'postgres' && !checkableDatabaseUrl(url)) return `give ${WHAT.postgres} (a pglite directory is not opened: a running server may hold it)`;
  if (kind === 'sqlite') return sqliteUncheckable(url);
  if (kind === 'mysql' && !URL.canParse(url)) return `give ${WHAT.mysql}`;
  return undefined;
}

const WHAT: Readonly<Record<SqlKind, string>> = {
  postgres: 'a postgres:// URL, or pglite: for an in-memory database',
  sqlite: 'sqlite:<file> (an existing database) or sqlite::memory:',
  mysql: 'a mysql:// or mariadb:// URL',
};

/**
 * The reports of `statements` (in the engine's placeholder style) on the database at `url`, after
 * the pending files of `migrations`, undone after. Rejects when the database cannot be reached or a
 * migration fails.
 */
export async function describeOnDatabase(url: string, migrations: string | undefined, statements: readonly string[]): Promise<StatementReport[]> {
  switch (sqlKindOfUrl(url)) {
    case 'sqlite':
      return (await import('./sqlite/check-database.js')).describeOnSqliteDatabase(url, migrations, statements);
    case 'mysql':
      return (await import('./mysql/check-database.js')).describeOnMysqlDatabase(url, migrations, statements);
    default:
      return describeOnPostgres(url, migrations, statements);
  }
}
