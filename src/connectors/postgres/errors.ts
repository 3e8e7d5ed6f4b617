/**
 * pg's failures -> connector categories (../errors.ts). Three sources: the server's error responses
 * (a SQLSTATE in `code`), Node's socket errors (an errno in `code`), and pg's own messages for a
 * connection or pool that gave up.
 */
import { ConnectorCategory, ConnectorError, describeCause, type ConnectorCategoryName } from '../errors.js';

/** Socket errors: the server is not there, or went away. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'ECONNABORTED']);

/**
 * SQLSTATEs that say the server cannot serve now: class 08 (connection exception), shutting down
 * (57P01-57P03), too many connections (53300).
 */
function unavailableState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/**
 * pg's own errors carry no code; their messages are stable across pg 8.x: a lost connection, the
 * pool's `connectionTimeoutMillis` (exhausted pool or slow connect), a pool already ended, and
 * pglite-socket's refusal of one connection too many (pg then sees the connection end).
 */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'Client was closed and is not queryable',
];

/**
 * A SQLSTATE: five characters, digits and upper-case letters. Node's socket errors carry an errno
 * name in `code` too, and EPIPE has that shape: an error with a `syscall` is never a SQLSTATE.
 */
export function sqlstateOf(cause: unknown): string | undefined {
  if (typeof cause !== 'object' || cause === null || 'syscall' in cause) return undefined;
  const code = (cause as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/**
 * Data exceptions (class 22) raised by a value that reached the database as a parameter: the
 * request's fault. Others of the class (22012 division by zero, 2201B an invalid regular expression
 * in the query) come from what the manifest computes and stay server errors.
 */
const REFUSED_VALUE_STATES: ReadonlySet<string> = new Set([
  '22001', // string_data_right_truncation: too long for its column
  '22003', // numeric_value_out_of_range
  '22007', // invalid_datetime_format
  '22008', // datetime_field_overflow
  '22021', // character_not_in_repertoire: a NUL character, invalid UTF-8
  '22P02', // invalid_text_representation: 'abc' for an integer
  '22P05', // untranslatable_character
]);

export function classifyPostgresError(cause: unknown): ConnectorCategoryName | undefined {
  if (cause instanceof ConnectorError) return cause.category;
  if (!(cause instanceof Error)) return undefined;
  const state = sqlstateOf(cause);
  if (state !== undefined) {
    if (unavailableState(state)) return ConnectorCategory.unavailable;
    // 57014 is any cancellation; only statement_timeout's is a time-out (a user's cancel is not).
    if (state === '57014' && /statement timeout/.test(cause.message)) return ConnectorCategory.timeout;
    if (REFUSED_VALUE_STATES.has(state)) return ConnectorCategory.invalidInput;
    return undefined;
  }
  const errno = (cause as NodeJS.ErrnoException).code;
  if (typeof errno === 'string' && NETWORK_CODES.has(errno)) return ConnectorCategory.unavailable;
  if (cause instanceof AggregateError && cause.errors.some((e) => classifyPostgresError(e) === ConnectorCategory.unavailable)) {
    return ConnectorCategory.unavailable;
  }
  if (UNAVAILABLE_MESSAGES.some((m) => cause.message.startsWith(m))) return ConnectorCategory.unavailable;
  return undefined;
}

/** A driver failure as the ConnectorError a handle throws, naming the connection. */
export function toConnectorError(cause: unknown, key: string, label: string): ConnectorError {
  if (cause instanceof ConnectorError) return cause;
  return new ConnectorError(`${label}: ${describeCause(cause)}`, {
    connection: key,
    category: classifyPostgresError(cause),
    code: sqlstateOf(cause),
    cause,
  });
}

/**
 * PgBouncer refuses start-up parameters it does not track, `statement_timeout` among them (pg sends
 * the connection's `statement_timeout` as one): its bare "unsupported startup parameter" says what,
 * not what to do. A session `SET` would not do either, through a pooler in transaction mode. The
 * server reports it as a protocol violation (class 08, "unavailable"), but it is the manifest's
 * setting, not an outage: no category, so the boot fails at once instead of retrying.
 */
export function withPoolerHint(error: unknown): unknown {
  if (!(error instanceof ConnectorError) || !/unsupported startup parameter: statement_timeout/.test(error.message)) return error;
  return new ConnectorError(
    `${error.message} (a pooler such as PgBouncer is in front of the server: remove statement_timeout from the connection ` +
      `and set it on the server instead: ALTER ROLE <user> SET statement_timeout = '5s' (or ALTER DATABASE <db> SET ...))`,
    { connection: error.connection, category: undefined, code: error.code, cause: error.cause },
  );
}
