/**
 * The sqlite handle step compilers bind to at boot. It holds nothing itself: each call reads the
 * open resource (a call before `openAll` or after `closeAll` fails clearly). A statement that reads
 * runs on the read connection of a file database (./resource.ts); one that looked like a read but
 * wrote (SQLITE_READONLY there, before any change) runs again on the write connection, and its text
 * goes there from then on.
 */
import type { ConnectorError } from '../errors.js';
import type { CursorOptions, PoolStats, QueryOptions, SqlCursor, SqlQuery, SqlResult, SqlSession, StatementReport } from '../sql-types.js';
import type { HandleIdentity, ResourceAccess } from '../types.js';
import { readOnlyRefusal } from './errors.js';
import { onConnection } from './execute.js';
import { takeLease } from './lease.js';
import type { SqliteConnection, SqliteResource } from './resource.js';
import { openSession } from './session.js';
import { readsFirst } from './routes.js';
import { execute } from './statement.js';
import type { SqliteHandle } from './types.js';

export function sqliteHandle(access: ResourceAccess<SqliteResource>, identity: HandleIdentity): SqliteHandle {
  return {
    key: identity.key,
    kind: 'sqlite',
    name: identity.name,
    url: identity.url,
    get state() {
      return access.state;
    },
    embedded: true,
    placeholders: 'numbered',
    query<Row>(query: SqlQuery | string, options: QueryOptions = {}): Promise<SqlResult<Row>> {
      let resource: SqliteResource;
      try {
        resource = access.get();
      } catch (error) {
        return Promise.reject(error);
      }
      return queryOn<Row>(resource, query, options);
    },
    async cursor<Row>(query: SqlQuery | string, options: CursorOptions = {}): Promise<SqlCursor<Row>> {
      const resource = access.get();
      const { openCursor } = await import('./cursor.js');
      return openCursor<Row>(resource, query, options);
    },
    async checkout(options: QueryOptions = {}): Promise<SqlSession> {
      const resource = access.get();
      return openSession(resource, await takeLease(resource, resource.write, options));
    },
    async describe(statements: readonly string[]): Promise<StatementReport[]> {
      const resource = access.get();
      const { describeSqliteStatements } = await import('./describe.js');
      // On the write connection, in its turn: it sees the schema the migrations made, and no
      // transaction is open on it meanwhile.
      return onConnection(resource, resource.write, () => describeSqliteStatements(resource.write.db, statements), {});
    },
    stats(): PoolStats {
      if (access.state !== 'open') return { total: 0, idle: 0, waiting: 0, max: 0 };
      const { read, write, turns } = access.get();
      const connections = read === write ? [write] : [write, read];
      const leased = write.lane.leased ? 1 : 0;
      return {
        total: connections.length,
        idle: connections.length - leased,
        waiting: turns.waiting + connections.reduce((n, c) => n + c.lane.waiting, 0),
        max: connections.length,
      };
    },
  };
}

export function queryOn<Row>(resource: SqliteResource, query: SqlQuery | string, options: QueryOptions): Promise<SqlResult<Row>> {
  const text = typeof query === 'string' ? query : query.text;
  const values = typeof query === 'string' ? undefined : query.values;
  const run = (conn: SqliteConnection): Promise<SqlResult<Row>> => onConnection(resource, conn, () => execute<Row>(conn.statements.get(text), values), options);
  if (resource.read === resource.write || !readsFirst(resource, text)) return run(resource.write);
  return run(resource.read).catch((error: ConnectorError) => {
    if (!readOnlyRefusal(error.cause)) throw error;
    resource.routes.set(text, false);
    return run(resource.write);
  });
}
