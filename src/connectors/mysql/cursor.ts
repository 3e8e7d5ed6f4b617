/**
 * `MysqlHandle.cursor`: a query's rows streamed as the reader takes them (SqlCursor in
 * ../sql-types.ts). MySQL has no portal to fetch from a batch at a time: the server sends the whole
 * result, and the pace is set by reading the socket. mysql2 hands each row over as it is parsed;
 * once `batchRows` rows wait unread, the connection is paused (its socket stops being read, TCP's
 * window fills, and the server blocks writing), and it resumes when the reader has taken them all.
 * At most one batch, plus the socket chunk being parsed, is held per open cursor.
 *
 * The connection goes back exactly once:
 * - rows exhausted: the server's end of result came, the connection is idle: released clean, the
 *   rows still unread stay readable;
 * - the query failed: the error packet ended it: released clean; destroyed when the connection
 *   itself failed;
 * - closed while rows are still coming: the server is told to stop (`KILL QUERY`, ./cancel.ts) and
 *   the connection is destroyed; reading the rest of a large result to reuse it would cost more.
 *
 * A paused stream holds its statement open on the server, and InnoDB's read view with it, for as
 * long as the reader takes: an export that slow clients read for long holds that much.
 */
import type { ExecuteValues } from 'mysql2';
import { ConnectorCategory, type ConnectorError } from '../errors.js';
import { watchInterrupt } from '../interrupt.js';
import type { CursorOptions, SqlCursor, SqlQuery } from '../sql-types.js';
import { toConnectorError } from './errors.js';
import { acquire, discard, interruptOn } from './execute.js';
import type { MysqlConnection, MysqlResource } from './resource.js';
import { type ColumnInfo, rowConverter } from './values.js';

/**
 * Rows parsed ahead of the reader before the socket is paused. Unlike PostgreSQL's fetch, a batch
 * costs no round trip (resuming is reading the socket again), so it only bounds memory: 500 rows of
 * 1 KiB are half a MiB, as on PostgreSQL.
 */
export const CURSOR_BATCH_ROWS = 500;

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/** What mysql2's query and execute commands emit when given no callback. */
interface RowEvents {
  on(event: 'fields', listener: (fields: ColumnInfo[]) => void): this;
  on(event: 'result', listener: (row: unknown) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  on(event: 'end', listener: () => void): this;
}

export async function openCursor<Row>(resource: MysqlResource, query: SqlQuery | string, options: CursorOptions): Promise<SqlCursor<Row>> {
  const { where } = resource;
  const batchRows = options.batchRows ?? CURSOR_BATCH_ROWS;
  if (!Number.isSafeInteger(batchRows) || batchRows < 1) throw new RangeError(`batchRows must be a positive integer, not ${batchRows}`);
  let cursor: RowStream<Row> | undefined;
  let ended = false;
  let abandonWait: ((reason: unknown) => void) | undefined;
  const interrupt = watchInterrupt(
    { signal: options.signal, timeoutMs: options.timeoutMs, interruptWith: options.endWith && ((stop) => (abandonWait = stop)) },
    where.key,
    where.label,
    'wait for a database connection',
  );
  options.endWith?.((reason) => {
    if (ended) return;
    ended = true;
    if (cursor !== undefined) void cursor.close();
    else abandonWait?.(reason ?? new Error('the cursor was closed before it opened'));
  });
  let connection: MysqlConnection;
  try {
    connection = await new Promise<MysqlConnection>((resolve, reject) => {
      const abandon = acquire(resource, (error, got) => (error === undefined ? resolve(got!) : reject(error)));
      interrupt?.promise.catch((why: unknown) => {
        abandon();
        reject(why);
      });
    });
  } finally {
    interrupt?.dispose();
  }
  cursor = new RowStream<Row>(resource, connection, typeof query === 'string' ? { text: query } : query, batchRows, options.failure);
  // Ended between the connection's arrival and this line: nobody will read it.
  if (ended) void cursor.close();
  return cursor;
}

class RowStream<Row> implements SqlCursor<Row> {
  readonly #resource: MysqlResource;
  readonly #connection: MysqlConnection;
  readonly #batchRows: number;
  /** Rows parsed and not yet read, from `#index` on. */
  #rows: unknown[] = [];
  #index = 0;
  #paused = false;
  /** The column definitions came: a result set follows (a statement without one answers only a status). */
  #hasColumns = false;
  /** The conversions of this result's columns (./values.ts). */
  #convert: ((row: Record<string, unknown>) => void) | undefined;
  /** The server's answer is complete (end of rows, or an error). */
  #ended = false;
  /** Closed by the reader: no more rows are handed out. */
  #closed = false;
  /** The failure the next pull rejects with, once. */
  #failure: unknown;
  /** CursorOptions.failure */
  readonly #reported: ((error: ConnectorError) => unknown) | undefined;
  #released = false;
  /** Wakes a pull waiting for rows. */
  #wake: (() => void) | undefined;
  readonly #onConnectionError: (error: Error) => void;

  constructor(
    resource: MysqlResource,
    connection: MysqlConnection,
    query: SqlQuery,
    batchRows: number,
    reported: ((error: ConnectorError) => unknown) | undefined,
  ) {
    this.#resource = resource;
    this.#reported = reported;
    this.#connection = connection;
    this.#batchRows = batchRows;
    this.#onConnectionError = (error) => this.#fail(error);
    connection.on('error', this.#onConnectionError);
    let events: RowEvents;
    try {
      events = (query.values === undefined
        ? connection.query(query.text)
        : connection.execute(query.text, query.values as ExecuteValues[])) as unknown as RowEvents;
    } catch (error) {
      this.#fail(error as Error);
      return;
    }
    events
      .on('fields', (fields) => {
        this.#hasColumns = true;
        this.#convert = rowConverter(fields);
      })
      .on('result', (row) => this.#push(row))
      .on('error', (error) => this.#fail(error))
      .on('end', () => this.#end());
  }

  get released(): boolean {
    return this.#released;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<Row, undefined>> {
    for (;;) {
      if (this.#closed) return DONE;
      if (this.#index < this.#rows.length) {
        const row = this.#rows[this.#index++] as Row;
        if (this.#index === this.#rows.length) this.#drained();
        return { done: false, value: row };
      }
      if (this.#failure !== undefined) {
        const failure = this.#failure;
        this.#failure = undefined;
        this.#closed = true;
        throw failure;
      }
      if (this.#ended) return DONE;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  async return(): Promise<IteratorResult<Row, undefined>> {
    await this.close();
    return DONE;
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#rows = [];
      this.#index = 0;
      this.#failure = undefined;
      if (!this.#released) {
        // Rows are still coming: the statement is stopped and the connection not reused.
        this.#released = true;
        interruptOn(this.#resource, this.#connection);
      }
      this.#wakeReader();
    }
    return Promise.resolve();
  }

  #push(row: unknown): void {
    // A statement without a result set answers its status as a "result": no row.
    if (!this.#hasColumns || this.#closed) return;
    this.#convert?.(row as Record<string, unknown>);
    this.#rows.push(row);
    if (!this.#paused && this.#rows.length - this.#index >= this.#batchRows) {
      this.#paused = true;
      this.#connection.pause();
    }
    this.#wakeReader();
  }

  /** Every parsed row was read: start a new batch, and let the socket be read again. */
  #drained(): void {
    this.#rows = [];
    this.#index = 0;
    if (this.#paused && !this.#released) {
      this.#paused = false;
      this.#connection.resume();
    }
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#release(false);
    this.#wakeReader();
  }

  /** The query, or the connection under it, failed: the next pull rejects; the connection goes back. */
  #fail(cause: Error): void {
    if (this.#ended) {
      // After the end only the connection can fail: it is not reused (already given back, it is gone from the pool anyway).
      return;
    }
    const error = toConnectorError(cause, this.#resource.where.key, this.#resource.where.label);
    this.#ended = true;
    if (!this.#closed) this.#failure = this.#reported === undefined ? error : this.#reported(error);
    this.#release(error.category === ConnectorCategory.unavailable);
    this.#wakeReader();
  }

  #wakeReader(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #release(destroy: boolean): void {
    if (this.#released) return;
    this.#released = true;
    // A destroyed connection keeps the listener: its socket may still report an error as it closes.
    if (!destroy) this.#connection.off('error', this.#onConnectionError);
    if (this.#paused && !destroy) {
      this.#paused = false;
      this.#connection.resume();
    }
    if (destroy) discard(this.#connection);
    else this.#connection.release();
  }
}
