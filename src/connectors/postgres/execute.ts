/**
 * The cancellation adapter: pg takes no AbortSignal, so a query is raced against the caller's
 * interrupt (../interrupt.ts). When the interrupt wins mid-query, the server is asked to cancel the
 * backend's query (./cancel.ts) and the client is destroyed, never reused: its connection may still
 * deliver the cancelled query's answer, and a ROLLBACK would queue behind it. Every path gives the
 * client back to the pool exactly once (`release`), so `totalCount`/`idleCount` stay whole.
 */
import type pg from 'pg';
import { ConnectorCategory, type ConnectorError } from '../errors.js';
import type { Interrupt } from '../interrupt.js';
import { sendCancelRequest } from './cancel.js';
import { toConnectorError } from './errors.js';
import type { SqlQuery, SqlResult } from './types.js';

/** Which connection, for errors. */
export interface Where {
  readonly key: string;
  readonly label: string;
}

export type QueryOutcome<Row> =
  | { readonly ok: true; readonly result: SqlResult<Row> }
  /** `destroy`: the client must not be reused (interrupted mid-query, or its connection failed). */
  | { readonly ok: false; readonly error: ConnectorError; readonly destroy: boolean };

/** Takes a client from the pool, or rejects when the interrupt fires first (the late client is put back). */
export async function acquire(pool: pg.Pool, interrupt: Interrupt | undefined, where: Where): Promise<pg.PoolClient> {
  const pending = pool.connect();
  try {
    return interrupt === undefined ? await pending : await Promise.race([pending, interrupt.promise]);
  } catch (error) {
    if (interrupt !== undefined && error === interrupt.reason) {
      // It ran nothing: whole, and reusable.
      pending.then(
        (client) => client.release(),
        () => {},
      );
      throw error;
    }
    throw toConnectorError(error, where.key, where.label);
  }
}

/**
 * Runs one statement on a checked-out client; the caller releases the client as the outcome says.
 * `named` false (`prepared_statements = false`) sends it unnamed whatever its `name`: a pooler in
 * transaction mode may hand the next statement to another server connection, where a statement
 * prepared on the first does not exist (or exists under that name with another text).
 */
export async function runQuery<Row>(
  client: pg.PoolClient,
  query: SqlQuery | string,
  interrupt: Interrupt | undefined,
  where: Where,
  named: boolean,
): Promise<QueryOutcome<Row>> {
  const work = client.query(toConfig(query, named)) as Promise<pg.QueryResult>;
  try {
    let result: pg.QueryResult;
    if (interrupt === undefined) result = await work;
    else {
      // The query may settle after the interrupt has won: its outcome is then nobody's.
      work.catch(() => {});
      result = await Promise.race([work, interrupt.promise]);
    }
    // pg's result has these fields and more; handing it over as is costs nothing per row.
    return { ok: true, result: result as unknown as SqlResult<Row> };
  } catch (cause) {
    const interrupted = interrupt?.reason;
    if (interrupted !== undefined && cause === interrupted) {
      sendCancelRequest(client);
      return { ok: false, error: interrupted, destroy: true };
    }
    const error = toConnectorError(cause, where.key, where.label);
    return { ok: false, error, destroy: error.category === ConnectorCategory.unavailable };
  }
}

/**
 * A statement as pg's own `Query` (the class is the resource's: pg is loaded by resource.ts alone),
 * answered through `callback`: what `client.query(config, callback)` builds, without the copy of the
 * config it makes first (a property-descriptor clone per query, as costly as the rest of the call).
 * Unnamed unless `named` (see runQuery).
 */
export function pgQuery(
  Query: typeof pg.Query,
  query: SqlQuery | string,
  named: boolean,
  callback: (error: Error | undefined, result: pg.QueryResult) => void,
): pg.Query {
  if (typeof query === 'string') return new Query(query, callback);
  const statement = new Query(query.text, query.values as unknown[] | undefined, callback);
  // Read by the query as it is sent (a named statement is parsed once per connection).
  if (named && query.name !== undefined) (statement as { name?: string }).name = query.name;
  return statement;
}

/** pg's form of a statement: unnamed unless `named` (see runQuery). */
function toConfig(query: SqlQuery | string, named: boolean): pg.QueryConfig {
  if (typeof query === 'string') return { text: query };
  const config: { text: string; values?: unknown[]; name?: string } = { text: query.text };
  if (query.values !== undefined) config.values = query.values as unknown[];
  if (named && query.name !== undefined) config.name = query.name;
  return config;
}
