/**
 * The diagnostic codes of sql steps, the `codes` facet of ./index.ts: the query and its arguments,
 * listen, streaming and catch rules, and a statement the database refuses (`svc check --database`).
 * A code never changes (src/diag/codes.ts): these keep the ones they had in the central catalogue.
 */
import type { DiagnosticCode } from '../../diag/index.js';

export const SQL_CODES: readonly DiagnosticCode[] = [
  { code: 'SVC_STEP_MISSING_QUERY', summary: 'Missing query argument', description: 'A sql step without its query.' },
  { code: 'SVC_STEP_DUPLICATE_QUERY_ARGUMENT', summary: 'Duplicate argument', description: 'A sql step sets the same query parameter twice.' },
  { code: 'SVC_STEP_UNUSED_QUERY_ARGUMENT', summary: 'Unused argument', description: 'A sql step sets a parameter that its query does not use.' },
  {
    code: 'SVC_STEP_STREAM_IN_TRANSACTION',
    summary: 'Streaming sql step in a transaction',
    description: 'A sql step with stream = true inside a transaction, which commits before a stream step could read the rows.',
  },
  {
    code: 'SVC_STEP_LISTEN_IN_TRANSACTION',
    summary: 'Listening sql step in a transaction',
    description: 'A sql step with listen inside a transaction, whose connection is not the one notifications arrive on.',
  },
  {
    code: 'SVC_STEP_LISTEN_UNSUPPORTED',
    summary: 'LISTEN not supported by the connection',
    description:
      'A sql step with listen on a connection that says a pooler in transaction mode is in front (prepared_statements = false), through which LISTEN cannot work.',
  },
  {
    code: 'SVC_STEP_SQL_REFUSED',
    summary: 'Query refused by the database',
    description:
      'A sql step whose statement the database refuses to prepare (svc check --database, check_queries = true): an unknown table or column, a syntax error, a type mismatch.',
  },
  {
    code: 'SVC_STEP_CATCH_ON_STREAM',
    summary: 'Catch on a streaming sql step',
    description: 'A catch block on a sql step with stream = true, whose response has started by the time a row fails.',
  },
];
