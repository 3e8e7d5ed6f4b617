/**
 * What the postgres connector offers step compilers, in driver-free types: src/steps never sees `pg`.
 */
import type { HandleBase } from '../types.js';

/** One statement. `values` bind `$1..$n`; `name` makes it a prepared statement, parsed once per connection. */
export interface SqlQuery {
  readonly text: string;
  readonly values?: readonly unknown[];
  readonly name?: string;
}

export interface SqlField {
  readonly name: string;
  /** The column's type OID (pg_type). */
  readonly dataTypeID: number;
}

export interface SqlResult<Row = Record<string, unknown>> {
  readonly rows: Row[];
  /** Rows returned or affected; null for statements that report none. */
  readonly rowCount: number | null;
  /** `SELECT`, `INSERT`, ... */
  readonly command: string;
  readonly fields: readonly SqlField[];
}

/**
 * How long a query may take and who may stop it. Both bound the whole call, the wait for a pool
 * client included. A query stopped mid-flight is cancelled on the server and its client destroyed.
 */
export interface QueryOptions {
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
  /**
   * Called once with a function that interrupts the call (cancelling the query on the server, as an
   * aborted signal does): the graph's `ctx.onRelease` fits, without an AbortController per query.
   */
  readonly interruptWith?: ((interrupt: (reason: unknown) => void) => void) | undefined;
}

export interface PoolStats {
  /** Clients open (idle and checked out). */
  readonly total: number;
  readonly idle: number;
  /** Callers waiting for a client. */
  readonly waiting: number;
  /** The pool's size. */
  readonly max: number;
}

/**
 * One client checked out of the pool, for statements that must share a connection (a transaction:
 * BEGIN/COMMIT/ROLLBACK are the caller's). Release it exactly when done; a second release is a no-op.
 */
export interface PostgresSession {
  query<Row = Record<string, unknown>>(query: SqlQuery | string, options?: QueryOptions): Promise<SqlResult<Row>>;
  /**
   * Gives the client back to the pool, or destroys it when `destroy` is true, when a query on it was
   * cancelled, or when its connection failed (such a session was already released at that moment).
   * Call it in the teardown of whatever checked it out.
   */
  release(destroy?: boolean): void;
  /** True once released (by `release`, or by a cancellation or connection failure). */
  readonly released: boolean;
}

export interface PostgresHandle extends HandleBase {
  readonly kind: 'postgres';
  /** True for `pglite:` URLs: one backend that runs one query at a time. */
  readonly embedded: boolean;
  /** Runs one statement on a pooled client. Rejects with a ConnectorError (see ../errors.ts). */
  query<Row = Record<string, unknown>>(query: SqlQuery | string, options?: QueryOptions): Promise<SqlResult<Row>>;
  /** Checks out one client; `options` bound the wait for it. */
  checkout(options?: QueryOptions): Promise<PostgresSession>;
  stats(): PoolStats;
}
