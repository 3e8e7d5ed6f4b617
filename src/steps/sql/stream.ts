/**
 * `sql` with `stream = true`: the output `{ stream }` is a cursor over the rows (the connector's
 * SqlCursor) that a `stream` step pulls a batch at a time. The pool client is taken when the step runs,
 * so no client in time is a 503 before anything is sent; a query error rejects the first pull, before
 * the status line. The cursor lives as long as the step's life (graph/README.md "The node's
 * context"), whose release closes it. The step's `timeout` bounds the wait for a client only; the
 * connection's `statement_timeout` bounds the whole stream (src/connectors/postgres/cursor.ts).
 * Refused in a transaction (it would commit before the rows are read) and with `catch` (the
 * response has started when a row fails).
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
