/**
 * A statement's client span (docs/operations.md "Tracing"): `db.system.name` postgresql, the operation (the
 * statement's first keyword), and the query's text as sent, with `$n` placeholders: svc passes every
 * value as a parameter, so no value is in it. A named query's name is the span's name. Only inside a
 * traced step (src/tracing `client` answers undefined elsewhere: pings, migrations, listeners).
 */
import type { SvcTracer, TraceSpan } from '../../tracing/index.js';
import { ConnectorError } from '../errors.js';
import type { SqlQuery, SqlResult } from './types.js';

/** `run`'s statement in a span when a traced step sent it; `run` alone otherwise. */
export function traceQuery<Row>(
  tracer: SvcTracer,
  query: SqlQuery | string,
  where: { readonly key: string; readonly label: string },
  run: () => Promise<SqlResult<Row>>,
): Promise<SqlResult<Row>> {
  const span = startQuerySpan(tracer, query, where);
  if (span === undefined) return run();
  return run().then(
    (result) => {
      endQuerySpan(span, result, undefined);
      return result;
    },
    (error: unknown) => {
      endQuerySpan(span, undefined, error);
      throw error;
    },
  );
}

/** The statement's span, or undefined outside a traced step. */
export function startQuerySpan(tracer: SvcTracer, query: SqlQuery | string, where: { readonly key: string }): TraceSpan | undefined {
  const text = typeof query === 'string' ? query : query.text;
  const operation = operationOf(text);
  const name = typeof query === 'string' ? undefined : query.name;
  return tracer.client('postgresql', name ?? operation ?? 'query', {
    'db.query.text': text,
    ...(operation !== undefined ? { 'db.operation.name': operation } : {}),
    ...(name !== undefined ? { 'db.query.summary': name } : {}),
    // The connection as the manifest names it (`postgres.main`).
    'svc.connection': where.key,
  });
}

/** Ends the span with the rows returned, or with the error (its SQLSTATE, else its category, as `error.type`). */
export function endQuerySpan(span: TraceSpan, result: SqlResult<unknown> | undefined, error: unknown): void {
  if (error !== undefined) {
    const failure = error instanceof ConnectorError ? error : undefined;
    span.fail(error, failure?.code ?? failure?.category ?? 'error');
  } else if (typeof result?.rowCount === 'number') span.set('db.response.returned_rows', result.rowCount);
  span.end();
}

/** The statement's first keyword, upper-case (`SELECT`, `INSERT`, `WITH`...). */
function operationOf(text: string): string | undefined {
  const match = /^\s*(?:--[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*([A-Za-z]+)/.exec(text);
  return match?.[1]?.toUpperCase();
}
