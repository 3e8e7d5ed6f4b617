/**
 * `PostgresHandle.cursor`: a query's rows through a named portal, a batch at a time and only when the
 * reader asks (SqlCursor in ./types.ts). Rows are read through pg-query-stream's `cursor`
 * (pg-cursor's `read(n)`), never its Readable side, which would keep two batches in flight.
 *
 * The client goes back exactly once: clean when the rows run out, the query failed or an idle portal
 * closed; destroyed when the connection failed, the close did not complete, or a fetch was running
 * (the server is asked to cancel it, ./cancel.ts). An open portal holds its snapshot, and
 * `statement_timeout` bounds the whole stream, pauses included; on PGlite it makes every query wait.
 */
import type pg from 'pg';
import QueryStream from 'pg-query-stream';
import { ConnectorCategory, type ConnectorError } from '../errors.js';
import { watchInterrupt } from '../interrupt.js';
import { sendCancelRequest } from './cancel.js';
import { toConnectorError } from './errors.js';
import { acquire, type Where } from './execute.js';
import type { CursorOptions, SqlCursor, SqlQuery } from './types.js';

/**
 * Rows per fetch: each is one round trip the reader waits for, and one batch per open cursor is held
 * in memory. Past 500 the gain is small (bench/export README "Cursor batch size").
 */
export const CURSOR_BATCH_ROWS = 500;

/** A portal that does not close in this time (a connection gone silent) gets its client destroyed. */
const CLOSE_TIMEOUT_MS = 2000;

/** What is used of pg-cursor (QueryStream's `cursor`, typed `any` there). */
interface PortalReader {
  read(rows: number, callback: (error: Error | undefined, rows: unknown[]) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * A QueryStream that knows whether pg has sent it. A client still awaiting the ReadyForQuery of a
 * failed statement queues the next one, and a portal abandoned in that queue would be sent later
 * and left open: such a client is destroyed instead (its queue fails with it).
 */
class Portal extends QueryStream {
  submitted = false;

  override submit(connection: pg.Connection): void {
    this.submitted = true;
    super.submit(connection);
  }
}

export async function openCursor<Row>(pool: pg.Pool, query: SqlQuery | string, options: CursorOptions, where: Where): Promise<SqlCursor<Row>> {
  const batchRows = options.batchRows ?? CURSOR_BATCH_ROWS;
  if (!Number.isSafeInteger(batchRows) || batchRows < 1) throw new RangeError(`batchRows must be a positive integer, not ${batchRows}`);
  let cursor: PortalCursor<Row> | undefined;
  let ended = false;
  let abandon: ((reason: unknown) => void) | undefined;
  const interrupt = watchInterrupt(
    {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      interruptWith: options.endWith && ((stop) => (abandon = stop)),
    },
    where.key,
    where.label,
    'wait for a database connection',
  );
  options.endWith?.((reason) => {
    if (ended) return;
    ended = true;
    if (cursor !== undefined) void cursor.close();
    else abandon?.(reason ?? new Error('the cursor was closed before it opened'));
  });
  let client: pg.PoolClient;
  try {
    client = await acquire(pool, interrupt, where);
  } finally {
    interrupt?.dispose();
  }
  cursor = new PortalCursor<Row>(client, typeof query === 'string' ? { text: query } : query, batchRows, where, options.failure);
  // Ended between the client's arrival and this line: nobody will read it.
  if (ended) void cursor.close();
  return cursor;
}

class PortalCursor<Row> implements SqlCursor<Row> {
  readonly #client: pg.PoolClient;
  readonly #stream: Portal;
  readonly #portal: PortalReader;
  readonly #batchRows: number;
  readonly #where: Where;
  /** The current batch, and the next row of it to hand out. */
  #rows: readonly unknown[] = [];
  #index = 0;
  /** The fetch in flight, shared by concurrent pulls. */
  #fetching: Promise<void> | undefined;
  /** Settles whatever waits on the server (a fetch, the portal's close) when the cursor ends under it. */
  #wake: (() => void) | undefined;
  /** No more rows will come: exhausted, failed or closed. */
  #done = false;
  /** The failure the next pull rejects with, once. */
  #failure: unknown;
  /** CursorOptions.failure */
  readonly #reported: ((error: ConnectorError) => unknown) | undefined;
  #released = false;
  #closing: Promise<void> | undefined;
  readonly #onClientError: (error: Error) => void;

  constructor(client: pg.PoolClient, query: SqlQuery, batchRows: number, where: Where, reported: ((error: ConnectorError) => unknown) | undefined) {
    this.#client = client;
    this.#reported = reported;
    this.#batchRows = batchRows;
    this.#where = where;
    // pg reports a connection lost mid-cursor to the portal and as the client's 'error' event, which
    // a checked-out client has no listener for (the pool's is removed) and would end the process.
    this.#onClientError = (error) => this.#fail(error);
    client.on('error', this.#onClientError);
    this.#stream = new Portal(query.text, query.values as unknown[] | undefined);
    // The Readable side is never read; a failed close would be emitted on it.
    this.#stream.on('error', ignore);
    this.#portal = this.#stream.cursor as PortalReader;
    // A query error that arrives before any pull (no fetch waits for it) is kept for the first pull.
    this.#portal.on('error', (error) => this.#fail(error));
    client.query(this.#stream);
  }

  get released(): boolean {
    return this.#released;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<Row, undefined>> {
    for (;;) {
      if (this.#index < this.#rows.length) return { done: false, value: this.#rows[this.#index++] as Row };
      if (this.#failure !== undefined) {
        const failure = this.#failure;
        this.#failure = undefined;
        throw failure;
      }
      if (this.#done) return DONE;
      await (this.#fetching ??= this.#fetch());
    }
  }

  /** SourceTraits.pullNow: a row of the fetched batch. */
  pullNow(): IteratorYieldResult<Row> | undefined {
    return this.#index < this.#rows.length ? { done: false, value: this.#rows[this.#index++] as Row } : undefined;
  }

  async return(): Promise<IteratorResult<Row, undefined>> {
    await this.close();
    return DONE;
  }

  close(): Promise<void> {
    return (this.#closing ??= this.#end());
  }

  #fetch(): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = (): void => {
        this.#fetching = undefined;
        this.#wake = undefined;
        resolve();
      };
      this.#wake = wake;
      this.#portal.read(this.#batchRows, (error, rows) => {
        // The cursor ended while this fetch ran: whoever ended it has woken the readers already.
        if (this.#wake !== wake) return;
        if (error !== undefined && error !== null) this.#fail(error);
        else {
          this.#rows = rows;
          this.#index = 0;
          if (rows.length < this.#batchRows) {
            // Fewer rows than asked: the portal is complete and ReadyForQuery already came.
            this.#done = true;
            this.#release(false);
          }
        }
        wake();
      });
    });
  }

  /** The query, or the connection under it, failed: the next pull rejects; the client goes back. */
  #fail(cause: Error): void {
    if (this.#done) {
      // After the end, only while the portal closes can anything still be held: the connection
      // failed under the close, so the client is not reused.
      this.#release(true);
      this.#wake?.();
      return;
    }
    const error = toConnectorError(cause, this.#where.key, this.#where.label);
    this.#done = true;
    this.#failure = this.#reported === undefined ? error : this.#reported(error);
    this.#rows = [];
    this.#release(error.category === ConnectorCategory.unavailable);
    this.#wake?.();
  }

  async #end(): Promise<void> {
    const fetching = this.#fetching !== undefined;
    const held = !this.#released;
    this.#done = true;
    this.#rows = [];
    this.#failure = undefined;
    // Pulls waiting for the fetch end the iteration now.
    this.#wake?.();
    if (!held) return;
    if (fetching || !this.#stream.submitted) {
      if (fetching) sendCancelRequest(this.#client);
      this.#release(true);
      return;
    }
    this.#release(!(await this.#closePortal()));
  }

  /** pg-query-stream's destroy: Close + Sync, done at ReadyForQuery. False when it did not finish. */
  #closePortal(): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => finish(false), CLOSE_TIMEOUT_MS);
      timer.unref();
      const finish = (closed: boolean): void => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve(closed);
      };
      // The connection failing meanwhile (#fail) settles it too; the client is destroyed then.
      this.#wake = () => finish(false);
      this.#stream.once('close', () => finish(true));
      this.#stream.destroy();
    });
  }

  #release(destroy: boolean): void {
    if (this.#released) return;
    this.#released = true;
    // A destroyed client keeps the listener: its socket may still report an error as it closes.
    if (!destroy) this.#client.off('error', this.#onClientError);
    // pg destroys a client released with a truthy argument instead of pooling it.
    this.#client.release(destroy || undefined);
  }
}

function ignore(): void {}
