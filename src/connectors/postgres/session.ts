/**
 * One client checked out for statements that must share a connection (a transaction). The release
 * rule is here so no caller gets it wrong: a cancelled query or a failed connection destroys the
 * client at once (the pool slot is free again immediately, and the session refuses further
 * queries); otherwise `release()` gives it back, once.
 */
import type pg from 'pg';
import { ConnectorCategory, ConnectorError } from '../errors.js';
import { watchInterrupt } from '../interrupt.js';
import { activeTracer } from '../../tracing/index.js';
import { runQuery, type Where } from './execute.js';
import { endQuerySpan, startQuerySpan } from './trace.js';
import type { PostgresSession, QueryOptions, SqlQuery, SqlResult } from './types.js';

/** `named`: whether statements keep their names (./execute.ts runQuery). */
export function openSession(client: pg.PoolClient, where: Where, named: boolean): PostgresSession {
  let released = false;
  /** Why the session ended early, for queries attempted after it. */
  let endedBy: ConnectorError | undefined;

  // A checked-out pg client has no 'error' listener (the pool's is removed), and a connection that
  // fails between two statements would otherwise crash the process.
  const onError = (error: Error): void => {
    endedBy ??= new ConnectorError(`${where.label}: the session's connection failed: ${error.message}`, {
      connection: where.key,
      category: ConnectorCategory.unavailable,
      cause: error,
    });
    finish(true);
  };
  client.on('error', onError);

  function finish(destroy: boolean): void {
    if (released) return;
    released = true;
    client.off('error', onError);
    // pg destroys a client released with a truthy argument instead of pooling it.
    client.release(destroy || undefined);
  }

  return {
    get released() {
      return released;
    },
    async query<Row>(query: SqlQuery | string, options: QueryOptions = {}): Promise<SqlResult<Row>> {
      if (released) {
        throw new ConnectorError(`${where.label}: the session was released${endedBy ? ` (${endedBy.message})` : ''}`, {
          connection: where.key,
          category: endedBy?.category,
          cause: endedBy,
        });
      }
      const interrupt = watchInterrupt(options, where.key, where.label, 'query');
      try {
        // Tracing on: the statement in a client span of the step that sent it (trace.ts).
        const tracer = activeTracer();
        const span = tracer === undefined ? undefined : startQuerySpan(tracer, query, where);
        const outcome = await runQuery<Row>(client, query, interrupt, where, named);
        if (span !== undefined) endQuerySpan(span, outcome.ok ? outcome.result : undefined, outcome.ok ? undefined : outcome.error);
        if (outcome.ok) return outcome.result;
        if (outcome.destroy) {
          endedBy ??= outcome.error;
          finish(true);
        }
        throw outcome.error;
      } finally {
        interrupt?.dispose();
      }
    },
    release(destroy = false) {
      finish(destroy);
    },
  };
}
