/**
 * The sqlite connector kind: `sqlite:<file>` and `sqlite::memory:`, on node:sqlite, the engine
 * built into Node.js (./driver.ts), loaded by the first sqlite connection only. docs/sqlite.md is the
 * user's view; src/connectors/README.md "SQLite" the decisions.
 */
import type { ConnectorDefinition } from '../types.js';
import { classifySqliteError } from './errors.js';
import { closedError } from './execute.js';
import { queryOn, sqliteHandle } from './handle.js';
import type { SqliteResource } from './resource.js';
import { describeSqliteTarget, sqliteTargetOf } from './target.js';
import type { SqliteHandle } from './types.js';

/** How long a statement waits for a lock another process holds, unless the connection says `busy_timeout`. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

export const sqliteConnector: ConnectorDefinition<SqliteResource, SqliteHandle> = {
  kind: 'sqlite',
  describe: (connection) => describeSqliteTarget(sqliteTargetOf(connection)),
  handle: (_connection, access, identity) => sqliteHandle(access, identity),
  async open(connection, context) {
    const { openSqlite } = await import('./resource.js');
    const busyTimeoutMs = connection.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    return openSqlite(sqliteTargetOf(connection), { key: context.key, label: context.label }, { busyTimeoutMs, logger: context.logger });
  },
  async ping(resource, timeoutMs) {
    await queryOn(resource, 'SELECT 1', { timeoutMs });
  },
  async prepare(resource, connection, context) {
    if (connection.migrations === undefined) return;
    const { applySqliteMigrations } = await import('./migrations.js');
    await applySqliteMigrations(resource, connection.migrations, context.logger);
  },
  async close(resource) {
    const { closeSqlite } = await import('./resource.js');
    closeSqlite(resource, closedError(resource));
  },
  classify: classifySqliteError,
};

export type { SqliteHandle } from './types.js';
