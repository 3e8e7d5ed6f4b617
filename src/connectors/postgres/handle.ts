/**
 * The postgres handle step compilers bind to at boot. It holds no connection itself: each call reads
 * the open resource (so a call before `openAll` or after `closeAll` fails clearly), takes a client
 * from the pool for one statement, for a cursor's life, or hands one out as a session.
 */
import type { ConnectionModel } from '../../model/index.js';
import { watchInterrupt } from '../interrupt.js';
import type { HandleIdentity, ResourceAccess } from '../types.js';
import { acquire, runQuery, type QueryOutcome } from './execute.js';
import type { PostgresResource } from './resource.js';
import { openSession } from './session.js';
import { targetOf } from './target.js';
import type { CursorOptions, PoolStats, PostgresHandle, PostgresSession, QueryOptions, SqlCursor, SqlQuery, SqlResult } from './types.js';

export function postgresHandle(connection: ConnectionModel, access: ResourceAccess<PostgresResource>, identity: HandleIdentity): PostgresHandle {
  const embedded = targetOf(connection).type === 'pglite';
  return {
    key: identity.key,
    kind: 'postgres',
    name: identity.name,
    url: identity.url,
    get state() {
      return access.state;
    },
    embedded,
    // async, so that a call before open rejects like every other failure instead of throwing.
    query: async <Row>(query: SqlQuery | string, options: QueryOptions = {}) => queryPool<Row>(access.get(), query, options),
    async cursor<Row>(query: SqlQuery | string, options: CursorOptions = {}): Promise<SqlCursor<Row>> {
      const { pool, where } = access.get();
      // pg-query-stream is loaded by the first cursor (cached by the module loader after that).
      const { openCursor } = await import('./cursor.js');
      return openCursor<Row>(pool, query, options, where);
    },
    async checkout(options: QueryOptions = {}): Promise<PostgresSession> {
      const { pool, where, namedStatements } = access.get();
      const interrupt = watchInterrupt(options, where.key, where.label, 'wait for a database connection');
      try {
        return openSession(await acquire(pool, interrupt, where), where, namedStatements);
      } finally {
        interrupt?.dispose();
      }
    },
    stats(): PoolStats {
      const { pool } = access.get();
      return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max };
    },
  };
}

/** One statement on a pooled client: the handle's `query`, and the ping. */
export async function queryPool<Row>(resource: PostgresResource, query: SqlQuery | string, options: QueryOptions): Promise<SqlResult<Row>> {
  const { pool, where, namedStatements } = resource;
  const interrupt = watchInterrupt(options, where.key, where.label, 'query');
  try {
    const client = await acquire(pool, interrupt, where);
    // pg reports a connection lost mid-query twice: to the query, and as the client's 'error' event,
    // which a checked-out client has no listener for (the pool's is removed) and would end the
    // process. The query's rejection is the report that counts.
    client.on('error', ignore);
    let outcome: QueryOutcome<Row> | undefined;
    try {
      outcome = await runQuery<Row>(client, query, interrupt, where, namedStatements);
    } finally {
      client.off('error', ignore);
      client.release(outcome === undefined || (!outcome.ok && outcome.destroy) ? true : undefined);
    }
    if (outcome.ok) return outcome.result;
    throw outcome.error;
  } finally {
    interrupt?.dispose();
  }
}

function ignore(): void {}
