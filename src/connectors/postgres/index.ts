/**
 * The postgres connector kind: `postgres://` / `postgresql://` servers and the embedded `pglite:`
 * engine, both on one `pg` Pool code path (DECISIONS.md §1).
 */
import type { ConnectorDefinition } from '../types.js';
import { classifyPostgresError, withPoolerHint } from './errors.js';
import { postgresHandle, queryPool } from './handle.js';
import { applyMigrations } from './migrations.js';
import type { PostgresResource } from './resource.js';
import { describeTarget, targetOf } from './target.js';
import type { StatementReport } from './statement-check.js';
import type { PostgresHandle } from './types.js';

export const postgresConnector: ConnectorDefinition<PostgresResource, PostgresHandle> = {
  kind: 'postgres',
  describe: (connection) => describeTarget(targetOf(connection)),
  handle: postgresHandle,
  // The driver (pg, PGlite) is loaded by the first postgres connection, not by every process that
  // imports the connectors: a service without one never pays its memory and load time.
  async open(connection, context) {
    const { openPostgres } = await import('./resource.js');
    return openPostgres(connection, targetOf(connection), { key: context.key, label: context.label }, context);
  },
  async ping(resource, timeoutMs) {
    try {
      await queryPool(resource, 'SELECT 1', { timeoutMs });
    } catch (error) {
      throw withPoolerHint(error);
    }
  },
  async prepare(resource, connection, context) {
    if (connection.migrations !== undefined) await applyMigrations(resource.pool, connection.migrations, resource.where.key, context.logger);
  },
  async close(resource) {
    const { closePostgres } = await import('./resource.js');
    await closePostgres(resource);
  },
  classify: classifyPostgresError,
};

/**
 * `svc check --database`: statements described on a database named by URL (./check-database.ts),
 * which loads the driver only when called.
 */
export async function describeOnDatabase(url: string, migrations: string | undefined, statements: readonly string[]): Promise<StatementReport[]> {
  const { describeOnDatabase: describe } = await import('./check-database.js');
  return describe(url, migrations, statements);
}

export { checkableDatabaseUrl } from './target.js';
export type { ColumnDescription, StatementError, StatementReport } from './statement-check.js';
export type { PostgresHandle, PostgresListening, PostgresSession, SqlCursor, SqlResult } from './types.js';
export { MIGRATIONS_TABLE } from './migrations.js';
export { pgliteTemplateFile, writeTemplate } from './template.js';
