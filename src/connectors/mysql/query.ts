/**
 * One statement on a pooled connection: the handle's `query` (every sql step outside a transaction)
 * and the ping. Driven by mysql2's callbacks: one promise for the caller, no race per stage.
 */
import { ConnectorCategory } from '../errors.js';
import { onInterrupt } from '../interrupt.js';
import type { QueryOptions, SqlQuery, SqlResult } from '../sql-types.js';
import { toConnectorError } from './errors.js';
import { acquire, discard, interruptOn, send, toResult } from './execute.js';
import type { MysqlConnection, MysqlResource } from './resource.js';

export function queryPool<Row>(resource: MysqlResource, query: SqlQuery | string, options: QueryOptions): Promise<SqlResult<Row>> {
  const { where } = resource;
  return new Promise((resolve, reject) => {
    /** Once the caller has its answer: an interruption, or the statement's outcome. */
    let settled = false;
    /** The connection while it runs the statement. */
    let running: MysqlConnection | undefined;
    let abandon: (() => void) | undefined;
    let stopWatching: (() => void) | undefined;
    try {
      stopWatching = onInterrupt(options, where.key, where.label, 'query', (error) => {
        settled = true;
        if (running !== undefined) interruptOn(resource, running);
        else abandon?.();
        reject(error);
      });
    } catch (error) {
      reject(error);
      return;
    }
    abandon = acquire(resource, (error, connection) => {
      if (settled) {
        connection?.release();
        return;
      }
      if (error !== undefined) {
        settled = true;
        stopWatching?.();
        reject(error);
        return;
      }
      running = connection!;
      try {
        send(running, query, (failure, rows, fields) => {
          if (settled) return; // interrupted: the connection was destroyed then.
          settled = true;
          stopWatching?.();
          const used = running!;
          running = undefined;
          if (failure === null) {
            used.release();
            resolve(toResult<Row>(query, rows, fields));
            return;
          }
          const connectorError = toConnectorError(failure, where.key, where.label);
          // A connection that failed is not given to the next caller.
          if (connectorError.category === ConnectorCategory.unavailable) discard(used);
          else used.release();
          reject(connectorError);
        });
      } catch (thrown) {
        // mysql2 refuses some values before sending anything (an undefined, a bind count mismatch).
        settled = true;
        stopWatching?.();
        running.release();
        running = undefined;
        reject(toConnectorError(thrown, where.key, where.label));
      }
    });
  });
}
