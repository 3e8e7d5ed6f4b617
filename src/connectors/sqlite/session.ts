/**
 * A session: the write connection held for statements that must share it (a transaction). The
 * transaction step sends `BEGIN`, `COMMIT` and `ROLLBACK`; `BEGIN` is sent as `BEGIN IMMEDIATE`,
 * which takes the database's write lock at once (waiting without blocking, ./busy.ts), so a
 * transaction never fails halfway for want of it. Released with a transaction still open (a
 * cancelled request, a failed COMMIT: SQLite keeps the transaction open after one), it is rolled
 * back first, so the connection goes back clean.
 */
import { ConnectorCategory, ConnectorError } from '../errors.js';
import type { QueryOptions, SqlQuery, SqlResult, SqlSession } from '../sql-types.js';
import { errcodeOf } from './errors.js';
import { onConnection } from './execute.js';
import type { Lease } from './lane.js';
import type { SqliteResource } from './resource.js';
import { execute } from './statement.js';

const CONTROL = /^\s*(BEGIN|COMMIT|END|ROLLBACK)\b/i;

export function openSession(resource: SqliteResource, lease: Lease): SqlSession {
  const { where, write } = resource;
  let released = false;
  let inTransaction = false;

  function release(): void {
    if (released) return;
    released = true;
    if (inTransaction && !resource.closed) {
      try {
        write.db.exec('ROLLBACK');
      } catch {
        // SQLite already rolled it back (some failures end the transaction themselves).
      }
    }
    inTransaction = false;
    lease.release();
  }

  return {
    get released() {
      return released;
    },
    query<Row>(query: SqlQuery | string, options: QueryOptions = {}): Promise<SqlResult<Row>> {
      if (released) {
        return Promise.reject(
          new ConnectorError(`${where.label}: the session was released`, { connection: where.key, category: ConnectorCategory.unavailable }),
        );
      }
      const text = typeof query === 'string' ? query : query.text;
      const values = typeof query === 'string' ? undefined : query.values;
      const control = CONTROL.exec(text)?.[1]?.toUpperCase();
      const sent = control === 'BEGIN' && /^\s*BEGIN\s*;?\s*$/i.test(text) ? 'BEGIN IMMEDIATE' : text;
      const work = (): SqlResult<Row> => {
        try {
          const result = execute<Row>(write.statements.get(sent), values);
          if (control === 'BEGIN') inTransaction = true;
          else if (control === 'COMMIT' || control === 'END' || control === 'ROLLBACK') inTransaction = false;
          return result;
        } catch (error) {
          // A ROLLBACK after SQLite ended the transaction itself has nothing left to undo.
          if (control === 'ROLLBACK' && errcodeOf(error) === 1 && /no transaction is active/.test(String((error as Error).message))) {
            inTransaction = false;
            return { rows: [], rowCount: null, command: 'ROLLBACK', fields: [] };
          }
          throw error;
        }
      };
      return onConnection(resource, write, work, options, lease);
    },
    release,
  };
}
