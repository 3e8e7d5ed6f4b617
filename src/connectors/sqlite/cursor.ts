/**
 * `stream = true`: a statement's rows read as the client takes them. The statement is prepared for
 * this cursor alone and stepped a batch of rows per turn (./turns.ts), so a long export gives the
 * loop back between batches, and another batch is read only when the reader has taken the last one.
 *
 * Where it runs: a read on a file database runs on the read-only connection, in WAL mode a snapshot
 * that writers do not wait for. Anything else (an in-memory database, a statement that writes)
 * holds the write connection's lease from the first batch to the end, as a transaction does: other
 * statements on that connection wait until the stream ends (docs/sqlite.md).
 */
import { ConnectorError } from '../errors.js';
import type { CursorOptions, SqlCursor, SqlQuery } from '../sql-types.js';
import { readOnlyRefusal } from './errors.js';
import { onConnection } from './execute.js';
import { stepGarbage } from './iterator-garbage.js';
import type { Lease } from './lane.js';
import { takeLease } from './lease.js';
import type { SqliteConnection, SqliteResource } from './resource.js';
import { readsFirst } from './routes.js';
import { bind, prepare, type Prepared } from './statement.js';

/** Rows stepped per turn: large enough to amortise a turn, small enough to keep one short. */
const DEFAULT_BATCH_ROWS = 256;

export async function openCursor<Row>(resource: SqliteResource, query: SqlQuery | string, options: CursorOptions): Promise<SqlCursor<Row>> {
  const text = typeof query === 'string' ? query : query.text;
  const values = bind(typeof query === 'string' ? undefined : query.values);
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS;
  let ended = false;
  let cursor: Cursor<Row> | undefined;
  // One registration for the whole life: before the cursor exists it abandons the wait for the
  // write connection, afterwards it closes the cursor.
  let abandon: ((reason: unknown) => void) | undefined;
  options.endWith?.((reason) => {
    ended = true;
    if (cursor !== undefined) void cursor.close();
    else abandon?.(reason);
  });
  const reads = resource.read !== resource.write && readsFirst(resource, text);
  let lease: Lease | undefined;
  if (!reads) {
    lease = await takeLease(resource, resource.write, {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      interruptWith: (interrupt) => {
        abandon = interrupt;
      },
    });
  }
  cursor = new Cursor<Row>(resource, text, values, batchRows, lease, options.failure);
  if (ended) await cursor.close();
  return cursor;
}

class Cursor<Row> implements SqlCursor<Row> {
  private prepared: Prepared | undefined;
  private iterator: IterableIterator<unknown[]> | undefined;
  private buffer: Row[] = [];
  private next_ = 0;
  private exhausted = false;
  private closed = false;
  private fetching: Promise<void> | undefined;
  private done = false;
  /** A batch returned rows: the statement can no longer move to another connection. */
  private stepped = false;
  /** The iterator's per-step garbage, on a Node.js line that makes it (./iterator-garbage.ts). */
  private readonly garbage = stepGarbage();

  constructor(
    private readonly resource: SqliteResource,
    private readonly text: string,
    private readonly values: unknown[],
    private readonly batchRows: number,
    private lease: Lease | undefined,
    /** What a failed batch rejects with (the sql step's located failure), else the connector's error. */
    private readonly failure: ((error: ConnectorError) => unknown) | undefined,
  ) {}

  get released(): boolean {
    return this.done;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<Row>> {
    if (this.next_ < this.buffer.length) return { done: false, value: this.buffer[this.next_++]! };
    if (this.exhausted || this.closed) {
      this.finish();
      return { done: true, value: undefined };
    }
    try {
      await (this.fetching = this.fetch());
    } catch (error) {
      this.finish();
      throw this.failure !== undefined && error instanceof ConnectorError ? this.failure(error) : error;
    } finally {
      this.fetching = undefined;
    }
    if (this.closed) {
      this.finish();
      return { done: true, value: undefined };
    }
    return this.next();
  }

  async return(): Promise<IteratorResult<Row>> {
    await this.close();
    return { done: true, value: undefined };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A batch in its turn or waiting for it: it ends first (its rows are dropped), then the statement is let go.
    await this.fetching?.catch(() => {});
    this.finish();
  }

  private async fetch(): Promise<void> {
    const conn = this.lease === undefined ? this.resource.read : this.resource.write;
    try {
      await onConnection(this.resource, conn, () => this.batch(conn), {}, this.lease);
    } catch (error) {
      // A statement that looked like a read but writes: on the write connection from now on.
      if (this.lease === undefined && !this.stepped && readOnlyRefusal((error as ConnectorError).cause)) {
        this.resource.routes.set(this.text, false);
        this.iterator = undefined;
        this.prepared = undefined;
        this.lease = await takeLease(this.resource, this.resource.write, {});
        return this.fetch();
      }
      throw error;
    }
  }

  /** One turn's rows, read into the buffer. */
  private batch(conn: SqliteConnection): void {
    if (this.closed) return;
    if (this.iterator === undefined) {
      // Prepared for this cursor only: a statement iterated here must not be reset by another caller.
      const prepared = prepare(conn.db, this.text);
      this.iterator = prepared.statement.iterate(...this.values);
      this.prepared = prepared;
    }
    const read = this.prepared!.read;
    const rows: Row[] = [];
    for (let i = 0; i < this.batchRows; i++) {
      const step = this.iterator.next();
      if (step.done === true) {
        this.exhausted = true;
        break;
      }
      rows.push(read(step.value) as Row);
    }
    if (rows.length > 0) this.stepped = true;
    this.garbage?.stepped(rows.length);
    this.buffer = rows;
    this.next_ = 0;
  }

  /** Lets the statement go (resets it, ending its read snapshot) and gives the lease back; once. */
  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.closed = true;
    this.buffer = [];
    try {
      this.iterator?.return?.();
    } catch {
      // The connection closed under it: nothing to reset.
    }
    this.lease?.release();
  }
}
