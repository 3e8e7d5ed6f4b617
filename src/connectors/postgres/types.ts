/**
 * What the postgres connector offers step compilers, in driver-free types: src/steps never sees `pg`.
 */
import type { HandleBase } from '../types.js';
import type { StatementReport } from './statement-check.js';

/**
 * One statement. `values` bind `$1..$n`; `name` makes it a prepared statement, parsed once per
 * connection, unless the connection says `prepared_statements = false` (then it is sent unnamed).
 */
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

/**
 * How a cursor is opened (`PostgresHandle.cursor`). `signal` and `timeoutMs` bound the wait for a pool
 * client only: once open, the cursor is paced by whoever reads it.
 */
export interface CursorOptions {
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
  /**
   * Called once, before the wait for a client, with `end`: while the client is awaited, `end`
   * abandons the wait (the call rejects); afterwards it closes the cursor as `close()` does.
   * The graph's `ctx.onRelease` fits: one registration covers the cursor's whole life.
   */
  readonly endWith?: ((end: (reason: unknown) => void) => void) | undefined;
  /** Rows asked of the server per fetch (default: the connector's, see ./cursor.ts). */
  readonly batchRows?: number | undefined;
}

/**
 * A query's rows read on demand from a server-side portal: the first pull sends the first fetch,
 * and another batch is fetched only when the consumer has taken every row of the previous one. It is
 * its own iterator (one pass). A query error rejects the first pull; a failure mid-way rejects the
 * pull that met it. The pool client is held from the open to the end of the rows, a failure,
 * `return()` or `close()`, and given back exactly once: clean (the portal closed) when no fetch was
 * running, destroyed (the query cancelled on the server) when one was or when the connection failed.
 */
export interface SqlCursor<Row = Record<string, unknown>> extends AsyncIterableIterator<Row> {
  /**
   * Ends the cursor and gives the client back (see above); idempotent, never rejects; `return()` is
   * the same. A pull waiting for a fetch then ends the iteration. Why the reader stopped does not
   * matter: the client's state alone decides between reuse and destruction.
   */
  close(): Promise<void>;
  /** True once the client is given back (rows exhausted, failed or closed). */
  readonly released: boolean;
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

/** Hears one channel's notifications, as the payload text that was sent (`''` for a bare NOTIFY). */
export type NotificationListener = (payload: string) => void;

export interface ListenOptions {
  /**
   * Told, once, that the listening connection dropped: notifications sent until it is back are
   * missed (NOTIFY keeps nothing). The listener is forgotten then: listen again to hear more.
   */
  readonly onLost?: ((reason: string) => void) | undefined;
}

/** A channel listened to; `unlisten` is idempotent. */
export interface PostgresListening {
  unlisten(): void;
}

export interface PostgresHandle extends HandleBase {
  readonly kind: 'postgres';
  /** True for `pglite:` URLs: one backend that runs one query at a time. */
  readonly embedded: boolean;
  /** Runs one statement on a pooled client. Rejects with a ConnectorError (see ../errors.ts). */
  query<Row = Record<string, unknown>>(query: SqlQuery | string, options?: QueryOptions): Promise<SqlResult<Row>>;
  /**
   * Takes a client for `query` and opens a cursor on it (see SqlCursor): rejects when no client comes
   * (a ConnectorError, `dependency-unavailable` past the pool's wait) or the wait is cut short. The
   * query is sent at once; its errors surface on the first pull. `name` is not used: a cursor's
   * statement is parsed unnamed, once per cursor.
   */
  cursor<Row = Record<string, unknown>>(query: SqlQuery | string, options?: CursorOptions): Promise<SqlCursor<Row>>;
  /** Checks out one client; `options` bound the wait for it. */
  checkout(options?: QueryOptions): Promise<PostgresSession>;
  /**
   * Listens to a channel (LISTEN/NOTIFY) over the connection's one listening connection, shared by
   * every channel and listener of the process (./listener.ts). Resolves once the LISTEN is done;
   * the channel is left (UNLISTEN) when its last listener leaves. Rejects with a ConnectorError:
   * dependency-unavailable when the server cannot be reached, or on PGlite, which cannot deliver
   * another connection's notifications (see README "PostgreSQL").
   */
  listen(channel: string, listener: NotificationListener, options?: ListenOptions): Promise<PostgresListening>;
  /** Why `listen` would fail at once now (not open, closed, reopening held back), else undefined. No I/O. */
  listenRefusal(): Error | undefined;
  /** The server process id of the listening connection while it is open (tests find it with it). */
  listenerProcessId(): number | undefined;
  /**
   * Describes each statement (positional `$n` text) without running it, in a transaction rolled
   * back after (./statement-check.ts): the boot check of `check_queries = true`.
   */
  describe(statements: readonly string[]): Promise<StatementReport[]>;
  stats(): PoolStats;
}
