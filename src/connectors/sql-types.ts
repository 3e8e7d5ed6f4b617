/**
 * What every SQL connector (PostgreSQL, SQLite, MySQL) offers step compilers, in driver-free types:
 * the sql and transaction steps are written against `SqlHandle` and never see an engine's driver.
 */
import type { SqlKind } from '../model/index.js';
import type { ConnectorError } from './errors.js';
import type { HandleBase } from './types.js';

/**
 * How the sql step writes a manifest's `@name` in the text the engine parses, and how it orders
 * the values: `dollar` ($1; a name used twice is one value: PostgreSQL), `numbered` (?1, likewise:
 * SQLite), `question` (?, one value per occurrence, in text order: MySQL).
 */
export type PlaceholderStyle = 'dollar' | 'numbered' | 'question';

/**
 * One statement. `values` bind the placeholders, in the handle's `placeholders` style; `name` makes it a prepared statement, parsed once per
 * connection, unless the connection says `prepared_statements = false` (then it is sent unnamed).
 */
export interface SqlQuery {
  readonly text: string;
  readonly values?: readonly unknown[];
  readonly name?: string;
}

export interface SqlField {
  readonly name: string;
  /** PostgreSQL: the column's type OID (pg_type). Other engines leave it out. */
  readonly dataTypeID?: number | undefined;
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
 * How a cursor is opened (`SqlHandle.cursor`). `signal` and `timeoutMs` bound the wait for a pool
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
  /**
   * What a pull rejects with when the query fails (called once, with the connector's error): the
   * sql step names itself and its manifest line there, as it does for a query that is not streamed.
   */
  readonly failure?: ((error: ConnectorError) => unknown) | undefined;
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
export interface SqlSession {
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

/**
 * One column of a statement's rows, as the engine described it without running the statement
 * (`svc check --database`, `check_queries = true`): what the OpenAPI document types the rows with.
 */
export interface ColumnDescription {
  readonly name: string;
  /** PostgreSQL: the pg_type oid (RowDescription's; a domain's base type). */
  readonly typeOid?: number;
  /** PostgreSQL: the labels of an enum type, in their order. */
  readonly enumLabels?: readonly string[];
  /**
   * SQLite, MySQL: the JSON Schema of the values the connector hands over for the column, null
   * aside (docs/sqlite.md and docs/mysql.md "Checking queries"); `{}` when they may be anything.
   */
  readonly schema?: Readonly<Record<string, unknown>>;
  /** The engine's name of the column's type (`INTEGER`, `decimal(10,2)`), where it says one. */
  readonly type?: string;
  /** True only where the engine says the column cannot be null; false when it cannot tell. */
  readonly notNull: boolean;
}

/** The engine's refusal of a statement. */
export interface StatementError {
  readonly message: string;
  /** PostgreSQL's and MySQL's SQLSTATE; SQLite's result code name. */
  readonly code?: string;
  /** 1-based character offset into the statement's text (as described, placeholders included). */
  readonly position?: number;
  readonly detail?: string;
  readonly hint?: string;
}

export type StatementReport =
  | {
      readonly ok: true;
      /** PostgreSQL: pg_type oids of $1, $2, ... as the server inferred them. */
      readonly parameterTypes?: readonly number[];
      /** Undefined when the statement returns no rows, or the engine cannot tell its columns. */
      readonly columns: readonly ColumnDescription[] | undefined;
    }
  | { readonly ok: false; readonly error: StatementError };

/** How each SQL engine writes a parameter (the handles' `placeholders`, known without one). */
export const PLACEHOLDERS: Readonly<Record<SqlKind, PlaceholderStyle>> = { postgres: 'dollar', sqlite: 'numbered', mysql: 'question' };

/** A SQL connection: what the sql and transaction steps bind to, whatever the engine. */
export interface SqlHandle extends HandleBase {
  readonly kind: SqlKind;
  /** True for an engine in this process (PGlite, SQLite): one statement at a time, on this thread. */
  readonly embedded: boolean;
  readonly placeholders: PlaceholderStyle;
  /** Runs one statement on a pooled connection. Rejects with a ConnectorError (see ./errors.ts). */
  query<Row = Record<string, unknown>>(query: SqlQuery | string, options?: QueryOptions): Promise<SqlResult<Row>>;
  /**
   * Takes a connection for `query` and opens a cursor on it (see SqlCursor): rejects when none
   * comes (a ConnectorError, `dependency-unavailable` past the pool's wait) or the wait is cut
   * short. The query is sent at once; its errors surface on the first pull.
   */
  cursor<Row = Record<string, unknown>>(query: SqlQuery | string, options?: CursorOptions): Promise<SqlCursor<Row>>;
  /**
   * Checks out one connection for statements that must share it (a transaction, whose `BEGIN`,
   * `COMMIT` and `ROLLBACK` the caller sends as those words; an engine may translate them).
   */
  checkout(options?: QueryOptions): Promise<SqlSession>;
  /**
   * Describes each statement (in the handle's `placeholders` style) without running it: its
   * columns, or the engine's refusal (`check_queries = true`). Rejects only when the connection
   * fails, never for a refused statement.
   */
  describe(statements: readonly string[]): Promise<StatementReport[]>;
  stats(): PoolStats;
}
