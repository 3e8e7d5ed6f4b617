/**
 * The postgres handle step compilers bind to at boot. It holds no connection itself: each call reads
 * the open resource (so a call before `openAll` or after `closeAll` fails clearly), takes a client
 * from the pool for one statement, for a cursor's life, or hands one out as a session.
 */
import type { ConnectionModel } from '../../model/index.js';
import type pg from 'pg';
import { ConnectorCategory } from '../errors.js';
import { onInterrupt, watchInterrupt } from '../interrupt.js';
import type { HandleIdentity, ResourceAccess } from '../types.js';
import { sendCancelRequest } from './cancel.js';
import { toConnectorError } from './errors.js';
import { acquire, pgQuery } from './execute.js';
import type { PostgresResource } from './resource.js';
import { openSession } from './session.js';
import { describeStatements, type StatementReport } from './statement-check.js';
import { traceQuery } from './trace.js';
import { activeTracer } from '../../tracing/index.js';
import { targetOf } from './target.js';
import type {
  CursorOptions,
  ListenOptions,
  NotificationListener,
  PoolStats,
  PostgresListening,
  PostgresHandle,
  PostgresSession,
  QueryOptions,
  SqlCursor,
  SqlQuery,
  SqlResult,
} from './types.js';

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
    placeholders: 'dollar',
    query<Row>(query: SqlQuery | string, options: QueryOptions = {}): Promise<SqlResult<Row>> {
      // A call before open rejects like every other failure instead of throwing. Not an async
      // function: that would wrap queryPool's promise in a second one, two microtask turns later.
      let resource: PostgresResource;
      try {
        resource = access.get();
      } catch (error) {
        return Promise.reject(error);
      }
      // Tracing on: the statement in a client span of the step that sent it (trace.ts).
      const tracer = activeTracer();
      if (tracer !== undefined) return traceQuery(tracer, query, resource.where, () => queryPool<Row>(resource, query, options));
      return queryPool<Row>(resource, query, options);
    },
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
    listen(channel: string, listener: NotificationListener, options: ListenOptions = {}): Promise<PostgresListening> {
      try {
        return access.get().listener.listen(channel, listener, options.onLost);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    listenRefusal(): Error | undefined {
      try {
        return access.get().listener.refusal();
      } catch (error) {
        return error as Error;
      }
    },
    listenerProcessId(): number | undefined {
      try {
        return access.get().listener.processId;
      } catch {
        return undefined;
      }
    },
    async describe(statements: readonly string[]): Promise<StatementReport[]> {
      const { pool, where } = access.get();
      const client = await acquire(pool, undefined, where);
      let whole = false;
      try {
        const reports = await describeStatements(client, statements, undefined);
        whole = true;
        return reports;
      } catch (error) {
        throw toConnectorError(error, where.key, where.label);
      } finally {
        // Its transaction is rolled back; after a failure the client may be in any state: destroyed.
        client.release(whole ? undefined : true);
      }
    },
    stats(): PoolStats {
      const { pool } = access.get();
      return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max };
    },
  };
}

/**
 * One statement on a pooled client: the handle's `query` (every sql step outside a transaction), and
 * the ping. Driven by pg's callbacks, not its promises: one promise for the caller instead of a
 * promise per stage and a race against the interrupt for each (execute.ts's path, for sessions).
 */
export function queryPool<Row>(resource: PostgresResource, query: SqlQuery | string, options: QueryOptions): Promise<SqlResult<Row>> {
  const { pool, where, namedStatements, Query } = resource;
  return new Promise((resolve, reject) => {
    /** Once the caller has its answer: an interruption, or the statement's outcome. */
    let settled = false;
    /** The client while it runs the statement. */
    let running: pg.PoolClient | undefined;
    let stopWatching: (() => void) | undefined;
    try {
      stopWatching = onInterrupt(options, where.key, where.label, 'query', (error) => {
        settled = true;
        if (running !== undefined) {
          // Mid-query: the server is asked to stop it, and the client is not reused (its connection
          // may still deliver the answer; a ROLLBACK would queue behind it). The error listener stays:
          // the ended connection may still report.
          sendCancelRequest(running);
          running.release(true);
        }
        reject(error);
      });
    } catch (error) {
      reject(error);
      return;
    }
    // Interrupted as the watch began (a step already over): no client is taken.
    if (settled) return;
    pool.connect((error, client) => {
      if (settled) {
        // Interrupted while waiting for a client: it ran nothing, so it is whole and reusable.
        client?.release();
        return;
      }
      if (error !== undefined && error !== null) {
        settled = true;
        stopWatching?.();
        reject(toConnectorError(error, where.key, where.label));
        return;
      }
      running = client!;
      // pg reports a connection lost mid-query twice: to the query, and as the client's 'error'
      // event, which a checked-out client has no listener for (the pool's is removed) and would end
      // the process. The query's report is the one that counts.
      running.on('error', ignore);
      running.query(
        pgQuery(Query, query, namedStatements, (failure, result) => {
          if (settled) return; // interrupted: the client was released (destroyed) then.
          settled = true;
          stopWatching?.();
          const used = running!;
          running = undefined;
          used.off('error', ignore);
          if (failure === null || failure === undefined) {
            used.release();
            // pg's result has these fields and more; handing it over as is costs nothing per row.
            resolve(result as unknown as SqlResult<Row>);
            return;
          }
          const connectorError = toConnectorError(failure, where.key, where.label);
          // A client whose connection failed is not given to the next caller.
          used.release(connectorError.category === ConnectorCategory.unavailable ? true : undefined);
          reject(connectorError);
        }),
      );
    });
  });
}

function ignore(): void {}
