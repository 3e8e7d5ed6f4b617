/**
 * The postgres connector kind: `postgres://` / `postgresql://` servers and the embedded `pglite:`
 * engine, both on one `pg` Pool code path (DECISIONS.md §1).
 */
import type { ConnectorDefinition } from '../types.js';
import { classifyPostgresError } from './errors.js';
import { postgresHandle, queryPool } from './handle.js';
import { applyMigrations } from './migrations.js';
import { closePostgres, openPostgres, type PostgresResource } from './resource.js';
import { describeTarget, targetOf } from './target.js';
import type { PostgresHandle } from './types.js';

export const postgresConnector: ConnectorDefinition<PostgresResource, PostgresHandle> = {
  kind: 'postgres',
  describe: (connection) => describeTarget(targetOf(connection)),
  handle: postgresHandle,
  open: (connection, context) => openPostgres(connection, targetOf(connection), { key: context.key, label: context.label }, context),
  async ping(resource, timeoutMs) {
    await queryPool(resource, 'SELECT 1', { timeoutMs });
  },
  async prepare(resource, connection, context) {
    if (connection.migrations !== undefined) await applyMigrations(resource.pool, connection.migrations, resource.where.key, context.logger);
  },
  close: closePostgres,
  classify: classifyPostgresError,
};

export type { PostgresHandle, PostgresSession, SqlCursor, SqlResult } from './types.js';
export { MIGRATIONS_TABLE } from './migrations.js';
