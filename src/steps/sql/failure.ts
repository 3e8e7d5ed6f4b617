/**
 * A statement the database refused at run time, as the request's log line shows it: once, naming the
 * sql step and where it is written (file and line), the server's message and SQLSTATE, and where in
 * the query the server points, in the manifest (./query-position.ts). Without the driver's error as
 * a cause and without a stack: the failure is the manifest's statement, not svc's code, and the log
 * serializer would repeat a cause's message after the error's own. The client's problem answer is
 * unchanged (no internals: the status and the step's name).
 */
import { ConnectorError } from '../../connectors/index.js';
import { sqlStateOf } from './catch.js';
import type { SqlStepSpec } from './spec.js';
import { errorPosition } from './statement-report.js';

/** `error` as it is logged; errors without a SQLSTATE (a lost connection, a time-out) are kept as they are. */
export function locatedFailure(spec: SqlStepSpec, error: unknown, sources: ReadonlyMap<string, string>): unknown {
  const code = sqlStateOf(error);
  if (code === undefined || !(error instanceof ConnectorError)) return error;
  const server = serverError(error);
  const at = errorPosition({ step: spec }, server?.position, sources);
  const where = `${spec.range.filename}:${spec.range.start.line}`;
  const inQuery = at === undefined ? '' : `, at ${spec.queryRange!.filename}:${at.line}:${at.column}`;
  const message = server?.message ?? error.message;
  const located = new ConnectorError(`sql "${spec.name}" (${where}): ${message} (SQLSTATE ${code}${inQuery})`, {
    connection: error.connection,
    category: error.category,
    code,
    // The engine's own codes (a SQLite result code name, a MySQL error number): a transaction's catch matches them too.
    codes: error.codes,
  });
  located.stack = `${located.name}: ${located.message}`;
  return located;
}

/** The server's error response under the connector's error: its own message and position. */
function serverError(error: ConnectorError): { message: string; position: number | undefined } | undefined {
  const cause = error.cause as { message?: unknown; position?: unknown } | undefined;
  if (cause === undefined || typeof cause.message !== 'string') return undefined;
  const position = typeof cause.position === 'string' && /^\d+$/.test(cause.position) ? Number(cause.position) : undefined;
  return { message: cause.message, position };
}
