/**
 * One statement on a connection, and the wait for a connection: mysql2 takes no AbortSignal and its
 * pool has no bound on the wait, so both are raced against the caller's interrupt (../interrupt.ts)
 * and the wait against the connection's `acquireTimeoutMs`. When the interrupt wins mid-statement,
 * the server is asked to stop it (./cancel.ts) and the connection is destroyed, never reused: its
 * socket may still deliver the statement's answer. A connection that arrives after its caller gave
 * up ran nothing and goes back to the pool. Every connection is given back exactly once.
 */
import type { ExecuteValues, FieldPacket, ResultSetHeader } from 'mysql2';
import { ConnectorCategory, ConnectorError } from '../errors.js';
import type { SqlField, SqlQuery, SqlResult } from '../sql-types.js';
import { killQuery } from './cancel.js';
import { toConnectorError } from './errors.js';
import type { MysqlConnection, MysqlResource } from './resource.js';
import { rowConverter } from './values.js';

/** What a statement answers through mysql2's callback. */
type Answer = (error: Error | null, rows: unknown, fields: FieldPacket[] | undefined) => void;

/**
 * Takes a connection: `done` gets it, or the failure (a ConnectorError). Returns `abandon`, which
 * gives up the wait (the late connection is put back) and reports nothing.
 */
export function acquire(resource: MysqlResource, done: (error: ConnectorError | undefined, connection?: MysqlConnection) => void): () => void {
  const { pool, where, acquireTimeoutMs } = resource;
  let waiting = true;
  resource.waiting++;
  const stopWaiting = (): void => {
    if (!waiting) return;
    waiting = false;
    resource.waiting--;
    if (timer !== undefined) clearTimeout(timer);
  };
  // An idle connection is handed over on the next tick: no wait to bound, and no timer made and
  // cleared on every statement (bench/mysql).
  const idle = (pool as unknown as { readonly _freeConnections: { readonly length: number } })._freeConnections.length > 0;
  const timer = idle
    ? undefined
    : setTimeout(() => {
        stopWaiting();
        done(
          new ConnectorError(`${where.label}: no database connection free within ${acquireTimeoutMs} ms (pool of ${resource.max})`, {
            connection: where.key,
            category: ConnectorCategory.unavailable,
          }),
        );
      }, acquireTimeoutMs);
  pool.getConnection((error, connection) => {
    if (!waiting) {
      // Given up on (the time-out above, or the caller): it ran nothing, so it is whole.
      connection?.release();
      return;
    }
    stopWaiting();
    if (error) done(toConnectorError(error, where.key, where.label));
    else done(undefined, connection);
  });
  return stopWaiting;
}

/**
 * Sends one statement: prepared (mysql2's `execute`, parsed once per connection and cached by its
 * text) when it has values or a name, as plain text otherwise (BEGIN, COMMIT, a ping).
 */
export function send(connection: MysqlConnection, query: SqlQuery | string, answer: Answer): void {
  if (typeof query === 'string') connection.query(query, answer);
  else if (query.values === undefined && query.name === undefined) connection.query(query.text, answer);
  else connection.execute(query.text, (query.values ?? []) as ExecuteValues[], answer);
}

/** Stops a statement mid-flight: the server is told, the connection is not reused. */
export function interruptOn(resource: MysqlResource, connection: MysqlConnection): void {
  killQuery(resource, connection);
  discard(connection);
}

/**
 * Takes a connection out of the pool and closes its socket at once. mysql2's `destroy()` only ends
 * the socket's writing side: a server still sending rows (or blocked sending them to a reader that
 * paused) would go on until its own write time-out. A socket destroyed outright makes its next
 * write fail, which ends the statement and the server's thread.
 */
export function discard(connection: MysqlConnection): void {
  connection.destroy();
  (connection as unknown as { stream?: { destroy(): void } }).stream?.destroy();
}

/** mysql2's answer as every SQL engine's result. */
export function toResult<Row>(query: SqlQuery | string, rows: unknown, fields: FieldPacket[] | undefined): SqlResult<Row> {
  return new MysqlResult<Row>(typeof query === 'string' ? query : query.text, rows, fields);
}

class MysqlResult<Row> implements SqlResult<Row> {
  readonly rows: Row[];
  readonly rowCount: number | null;
  readonly #text: string;
  readonly #fields: FieldPacket[] | undefined;

  constructor(text: string, rows: unknown, fields: FieldPacket[] | undefined) {
    this.#text = text;
    this.#fields = fields;
    if (Array.isArray(rows)) {
      // A CALL answers its result sets and a status: the first set is the procedure's answer.
      const call = Array.isArray(rows[0]);
      const first = call ? (rows[0] as Row[]) : (rows as Row[]);
      const convert = rowConverter(call ? (fields?.[0] as unknown as FieldPacket[] | undefined) : fields);
      if (convert !== undefined) for (const row of first) convert(row as Record<string, unknown>);
      this.rows = first;
      this.rowCount = first.length;
    } else {
      this.rows = [];
      this.rowCount = (rows as ResultSetHeader | undefined)?.affectedRows ?? null;
    }
  }

  /** The statement's first word, as PostgreSQL reports its command tag ("SELECT", "INSERT"). */
  get command(): string {
    return /^\s*(\w+)/.exec(this.#text)?.[1]?.toUpperCase() ?? '';
  }

  get fields(): readonly SqlField[] {
    const fields = Array.isArray(this.#fields?.[0]) ? (this.#fields[0] as unknown as FieldPacket[]) : this.#fields;
    return (fields ?? []).map((f) => ({ name: f.name }));
  }
}
