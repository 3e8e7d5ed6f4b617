/**
 * The mysql connector kind: MySQL and MariaDB servers (`mysql://`, `mariadb://`) through a mysql2
 * pool, loaded by the first mysql connection only. docs/mysql.md is the user's view;
 * src/connectors/README.md "MySQL" the decisions.
 */
import type { ConnectorDefinition } from '../types.js';
import { classifyMysqlError } from './errors.js';
import type { MysqlResource } from './resource.js';
import { describeMysqlTarget, mysqlTargetOf } from './target.js';
import type { MysqlHandle } from './types.js';
import { mysqlHandle } from './handle.js';

export const mysqlConnector: ConnectorDefinition<MysqlResource, MysqlHandle> = {
  kind: 'mysql',
  describe: describeMysqlTarget,
  handle: (_connection, access, identity) => mysqlHandle(access, identity),
  async open(connection, context) {
    const { openMysql } = await import('./resource.js');
    return openMysql(connection, mysqlTargetOf(connection), { key: context.key, label: context.label }, context);
  },
  async ping(resource, timeoutMs) {
    const { queryPool } = await import('./query.js');
    await queryPool(resource, 'SELECT 1', { timeoutMs });
  },
  async prepare(resource, connection, context) {
    if (connection.migrations === undefined) return;
    const { applyMysqlMigrations } = await import('./migrations.js');
    await applyMysqlMigrations(resource, connection.migrations, context.logger);
  },
  async close(resource) {
    const { closeMysql } = await import('./resource.js');
    await closeMysql(resource);
  },
  classify: classifyMysqlError,
};

export type { MysqlHandle } from './types.js';
