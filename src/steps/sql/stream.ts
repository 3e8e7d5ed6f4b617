/**
 * `sql` with `stream = true`: the step's output is `{ stream }`, a cursor over the query's rows
 * (the connector's SqlCursor, an AsyncIterable) that a `stream` step reads on demand (graph/stream.ts
 * PulledSource). The step takes its pool client when it runs: a pool that gives none in time fails
 * the step as `dependency-unavailable`, a 503, before anything is sent. The rows are fetched a batch
 * at a time as the reader pulls; a query error rejects the first pull, which the HTTP edge makes
 * before it commits the status line.
 *
 * The cursor lives as long as the step's life (graph/README.md "The node's context"): that ends
 * when the stream outcome is disposed, or when the run ends another way (a failure, a time-out, the
 * client gone, a stream nobody read), and its release closes the cursor and gives the client back.
 * The step's `timeout` bounds the wait for a client, not the reading; the connection's
 * `statement_timeout` bounds the whole stream (src/connectors/postgres/cursor.ts), so an export
 * that slow clients read for long wants a connection without one. On PGlite (one client) an open
 * stream makes every other query on the connection wait until it ends.
 *
 * Not in a transaction (the decoder refuses it: the transaction would commit before the rows are
 * read), and without `catch` blocks (refused too: the response has started when a row fails).
 */
import type { RunContext } from '../../../graph/index.js';
import type { ConnectorError, SqlCursor, SqlHandle } from '../../connectors/index.js';
import type { EndpointScope } from '../contract.js';

export interface SqlStreamOutput {
  readonly stream: SqlCursor;
}

export function streamRows(
  handle: SqlHandle,
  text: string,
  valuesOf: (scope: EndpointScope) => unknown[],
  /** What a failed query becomes: the step's located failure (./failure.ts), as when not streamed. */
  failure: (error: ConnectorError) => unknown,
): (scope: EndpointScope, ctx: RunContext) => Promise<SqlStreamOutput> {
  return (scope, ctx) => {
    const values = valuesOf(scope);
    // One registration for the whole life: while the client is awaited it abandons the wait, after
    // that it closes the cursor, whether the life ended normally or not.
    return handle.cursor({ text, values }, { endWith: (end) => ctx.onRelease(end), failure }).then(asOutput);
  };
}

function asOutput(cursor: SqlCursor): SqlStreamOutput {
  return { stream: cursor };
}
