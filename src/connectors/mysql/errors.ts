/**
 * mysql2's failures -> connector categories (../errors.ts) and catch codes. Three sources: the
 * server's error packets (`errno`, `sqlState`, `code` the error's name such as ER_DUP_ENTRY), Node's
 * socket errors (an errno name in `code`), and mysql2's own protocol errors (PROTOCOL_*, `fatal`).
 *
 * A server error keeps its SQLSTATE as the ConnectorError's `code` and, in `codes`, its number as
 * text ("1062"), its name ("ER_DUP_ENTRY") and, for the constraint classes, PostgreSQL's SQLSTATE of
 * that class, so `catch "23505"` means "unique violation" on every engine (MySQL's own SQLSTATE,
 * 23000, is one for every constraint).
 */
import { ConnectorCategory, ConnectorError, describeCause, type ConnectorCategoryName } from '../errors.js';

/** What mysql2 puts on a server's error (and Node on a socket's). */
interface MysqlFailure extends Error {
  readonly code?: string;
  readonly errno?: number;
  readonly sqlState?: string;
  readonly fatal?: boolean;
  readonly syscall?: string;
}

/** mysql2's message (and only mark) for a call on a pool that `end()` closed. */
const POOL_CLOSED = 'Pool is closed.';

/** Socket errors: the server is not there, or went away. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ECONNABORTED']);

/** mysql2's own: the connection closed under a command, or a command was queued on a closed one. */
const UNAVAILABLE_PROTOCOL_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'POOL_CLOSED',
]);

/**
 * Server errors that say it cannot serve now: too many connections (1040), shutting down (1053,
 * 1077-1079), out of memory or threads (1037, 1135), the connection killed (1927 MariaDB, 4031 MySQL's
 * idle disconnect), read-only while a replica (1290 is not: that is the statement's fault).
 */
const UNAVAILABLE_ERRNOS = new Set([1037, 1040, 1053, 1077, 1078, 1079, 1135, 1152, 1158, 1159, 1160, 1161, 1927, 4031]);

/** The server's own time-outs: max_statement_time (MariaDB 1969), max_execution_time (MySQL 3024), a lock wait (1205). */
const TIMEOUT_ERRNOS = new Set([1969, 3024, 1205]);

/**
 * A value the request supplied that the column cannot take (strict mode): out of range (1264), too
 * long (1406), not a number or date of its type (1366, 1292, 1367), truncated (1265), invalid JSON
 * (3140): the request's fault, 400. Division by zero and the like come from the manifest's SQL and
 * stay server errors.
 */
const REFUSED_VALUE_ERRNOS = new Set([1264, 1406, 1366, 1292, 1367, 1265, 3140]);

/** The constraint classes, as PostgreSQL's SQLSTATEs (src/connectors/errors.ts `codes`). */
const PORTABLE_STATES: ReadonlyMap<number, string> = new Map([
  [1062, '23505'], // ER_DUP_ENTRY
  [1586, '23505'], // ER_DUP_ENTRY_WITH_KEY_NAME
  [1451, '23503'], // ER_ROW_IS_REFERENCED_2: a parent row still referenced
  [1452, '23503'], // ER_NO_REFERENCED_ROW_2: no parent row
  [1216, '23503'], // ER_NO_REFERENCED_ROW
  [1217, '23503'], // ER_ROW_IS_REFERENCED
  [1048, '23502'], // ER_BAD_NULL_ERROR
  [1364, '23502'], // ER_NO_DEFAULT_FOR_FIELD: a NOT NULL column without a value
  [3819, '23514'], // ER_CHECK_CONSTRAINT_VIOLATED (MySQL)
  [4025, '23514'], // ER_CONSTRAINT_FAILED (MariaDB's CHECK, and its JSON columns' json_valid)
]);

function isServerError(cause: unknown): cause is MysqlFailure & { errno: number } {
  return cause instanceof Error && typeof (cause as MysqlFailure).errno === 'number' && typeof (cause as MysqlFailure).sqlState === 'string';
}

export function classifyMysqlError(cause: unknown): ConnectorCategoryName | undefined {
  if (cause instanceof ConnectorError) return cause.category;
  if (!(cause instanceof Error)) return undefined;
  const failure = cause as MysqlFailure;
  if (isServerError(cause)) {
    const { errno } = cause;
    if (UNAVAILABLE_ERRNOS.has(errno) || failure.sqlState!.startsWith('08')) return ConnectorCategory.unavailable;
    if (TIMEOUT_ERRNOS.has(errno)) return ConnectorCategory.timeout;
    if (REFUSED_VALUE_ERRNOS.has(errno)) return ConnectorCategory.invalidInput;
    return undefined;
  }
  const code = failure.code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_PROTOCOL_CODES.has(code))) return ConnectorCategory.unavailable;
  if (cause instanceof AggregateError && cause.errors.some((e) => classifyMysqlError(e) === ConnectorCategory.unavailable))
    return ConnectorCategory.unavailable;
  // A connection mysql2 gave up on (its `fatal` errors) is gone, whatever the reason; a pool being
  // closed (svc stopping) says so in its only words.
  if (failure.fatal === true || cause.message === POOL_CLOSED) return ConnectorCategory.unavailable;
  return undefined;
}

/** The codes a catch block matches: the server's number and name, and the portable SQLSTATE of a constraint. */
function codesOf(cause: MysqlFailure & { errno: number }): string[] {
  const codes = [String(cause.errno)];
  if (typeof cause.code === 'string') codes.push(cause.code);
  const portable = PORTABLE_STATES.get(cause.errno);
  if (portable !== undefined) codes.push(portable);
  return codes;
}

/** A driver failure as the ConnectorError a handle throws, naming the connection. */
export function toConnectorError(cause: unknown, key: string, label: string): ConnectorError {
  if (cause instanceof ConnectorError) return cause;
  const server = isServerError(cause);
  return new ConnectorError(`${label}: ${describeCause(cause)}`, {
    connection: key,
    category: classifyMysqlError(cause),
    code: server ? cause.sqlState : undefined,
    codes: server ? codesOf(cause) : undefined,
    cause,
  });
}
