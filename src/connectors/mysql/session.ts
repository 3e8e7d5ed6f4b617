/**
 * One connection checked out for statements that must share it (a transaction). The release rule is
 * here so no caller gets it wrong: an interrupted statement or a failed connection destroys the
 * connection at once (the pool slot is free again, and the session refuses further statements);
 * otherwise `release()` gives it back, once.
 */
import { ConnectorCategory, ConnectorError } from '../errors.js';
import { watchInterrupt } from '../interrupt.js';
import type { QueryOptions, SqlQuery, SqlResult, SqlSession } from '../sql-types.js';
import { toConnectorError } from './errors.js';
import { discard, interruptOn, send, toResult } from './execute.js';
import type { MysqlConnection, MysqlResource } from './resource.js';

export function openSession(resource: MysqlResource, connection: MysqlConnection): SqlSession {
  const { where } = resource;
  let released = false;
  /** Why the session ended early, for statements attempted after it. */
  let endedBy: ConnectorError | undefined;
  /** Statements sent and not yet answered. */
  let running = 0;

  // The connection failing between two statements ends the session (its transaction died with it).
  const onError = (error: Error): void => {
    endedBy ??= new ConnectorError(`${where.label}: the session's connection failed: ${error.message}`, {
      connection: where.key,
      category: ConnectorCategory.unavailable,
      cause: error,
    });
    finish(true);
  };
  connection.on('error', onError);

  function finish(destroy: boolean): void {
    if (released) return;
    released = true;
    connection.off('error', onError);
    // Destroyed with a statement still running (a transaction torn down by a request time-out or a
    // client gone, before its statement's own interrupt fires): the server is told to stop it too,
    // or it runs on until it notices the closed socket (SLEEP: up to 5 s) or never does (a lock wait).
    if (destroy && running > 0) interruptOn(resource, connection);
    else if (destroy) discard(connection);
    else connection.release();
  }

  function run<Row>(query: SqlQuery | string): Promise<SqlResult<Row>> {
    running++;
    return new Promise((resolve, reject) => {
      send(connection, query, (failure, rows, fields) => {
        running--;
        if (failure === null) resolve(toResult<Row>(query, rows, fields));
        else reject(failure);
      });
    });
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
      const work = run<Row>(query);
      try {
        if (interrupt === undefined) return await work;
        // The statement may settle after the interrupt has won: its outcome is then nobody's.
        work.catch(() => {});
        return await Promise.race([work, interrupt.promise]);
      } catch (cause) {
        if (interrupt?.reason !== undefined && cause === interrupt.reason) {
          endedBy ??= interrupt.reason;
          if (!released) {
            released = true;
            connection.off('error', onError);
            interruptOn(resource, connection);
          }
          throw cause;
        }
        const error = toConnectorError(cause, where.key, where.label);
        if (error.category === ConnectorCategory.unavailable) {
          endedBy ??= error;
          finish(true);
        }
        throw error;
      } finally {
        interrupt?.dispose();
      }
    },
    release(destroy = false) {
      finish(destroy);
    },
  };
}
