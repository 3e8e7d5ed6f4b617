/**
 * The mysql handle step compilers bind to at boot. It holds no connection itself: each call reads
 * the open resource (so a call before `openAll` or after `closeAll` fails clearly), takes a pooled
 * connection for one statement, for a cursor's life, or hands one out as a session.
 */
import { ConnectorError } from '../errors.js';
import { watchInterrupt } from '../interrupt.js';
import type { CursorOptions, PoolStats, QueryOptions, SqlCursor, SqlQuery, SqlResult, SqlSession, StatementReport } from '../sql-types.js';
import { toConnectorError } from './errors.js';
import type { HandleIdentity, ResourceAccess } from '../types.js';
import { acquire } from './execute.js';
import { queryPool } from './query.js';
import type { MysqlConnection, MysqlResource } from './resource.js';
import { openSession } from './session.js';
import type { MysqlHandle } from './types.js';

export function mysqlHandle(access: ResourceAccess<MysqlResource>, identity: HandleIdentity): MysqlHandle {
  return {
    key: identity.key,
    kind: 'mysql',
    name: identity.name,
    url: identity.url,
    get state() {
      return access.state;
    },
    embedded: false,
    placeholders: 'question',
    query<Row>(query: SqlQuery | string, options: QueryOptions = {}): Promise<SqlResult<Row>> {
      // A call before open rejects like every other failure instead of throwing.
      let resource: MysqlResource;
      try {
        resource = access.get();
      } catch (error) {
        return Promise.reject(error);
      }
      return queryPool<Row>(resource, query, options);
    },
    async cursor<Row>(query: SqlQuery | string, options: CursorOptions = {}): Promise<SqlCursor<Row>> {
      const resource = access.get();
      const { openCursor } = await import('./cursor.js');
      return openCursor<Row>(resource, query, options);
    },
    async checkout(options: QueryOptions = {}): Promise<SqlSession> {
      const resource = access.get();
      const { where } = resource;
      const interrupt = watchInterrupt(options, where.key, where.label, 'wait for a database connection');
      try {
        const connection = await new Promise<MysqlConnection>((resolve, reject) => {
          const abandon = acquire(resource, (error, got) => (error === undefined ? resolve(got!) : reject(error)));
          interrupt?.promise.catch((why: unknown) => {
            abandon();
            reject(why instanceof ConnectorError ? why : new ConnectorError(String(why), { connection: where.key }));
          });
        });
        return openSession(resource, connection);
      } finally {
        interrupt?.dispose();
      }
    },
    async describe(statements: readonly string[]): Promise<StatementReport[]> {
      const resource = access.get();
      const { where } = resource;
      const connection = await new Promise<MysqlConnection>((resolve, reject) => {
        acquire(resource, (error, got) => (error === undefined ? resolve(got!) : reject(error)));
      });
      const { describeMysqlStatements } = await import('./describe.js');
      let whole = false;
      try {
        const reports = await describeMysqlStatements(connection, statements);
        whole = true;
        return reports;
      } catch (error) {
        throw toConnectorError(error, where.key, where.label);
      } finally {
        // A connection that failed under the check is not given to a request.
        if (whole) connection.release();
        else connection.destroy();
      }
    },
    stats(): PoolStats {
      if (access.state !== 'open') return { total: 0, idle: 0, waiting: 0, max: 0 };
      const resource = access.get();
      const pool = resource.pool as unknown as MysqlPoolInternals;
      return { total: pool._allConnections.length, idle: pool._freeConnections.length, waiting: resource.waiting, max: resource.max };
    },
  };
}

/** mysql2 keeps its pool's counts in queues it does not expose otherwise (stable through 3.x). */
interface MysqlPoolInternals {
  readonly _allConnections: { readonly length: number };
  readonly _freeConnections: { readonly length: number };
}
