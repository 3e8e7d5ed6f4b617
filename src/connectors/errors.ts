/**
 * Connector failures as values: which connection, which category, which database code.
 *
 * Categories are the strings graph/ and src/http agree on (graph/errors.ts `Category`, src/http
 * failure.ts): an unreachable dependency or an exhausted pool is a 503, a time-out a 504, a failed
 * upstream HTTP exchange a 502, a cancellation is the engine's own. A failure without a category (an
 * SQL error) keeps its SQLSTATE in `code` so a `catch "<SQLSTATE>"` block can match it, and is a 500
 * otherwise.
 */
import { messageOf } from '../../graph/index.js';

export const ConnectorCategory = {
  /** Refused or lost connection, pool exhausted past its wait, server shutting down: 503. */
  unavailable: 'dependency-unavailable',
  /** The caller's time-out or the server's statement_timeout: 504. */
  timeout: 'timeout',
  /** The caller's AbortSignal fired (client gone, sibling failed). */
  cancelled: 'cancelled',
  /**
   * An upstream HTTP server refused, reset or could not be resolved, or answered something the http
   * step cannot accept (a malformed response, a body over its size limit): 502. Its own 4xx/5xx
   * answers are data, never this.
   */
  badGateway: 'bad-gateway',
  /**
   * The database refused a value the request supplied (the data exceptions of SQLSTATE class 22 a
   * parameter raises: a NUL character or invalid text for its type, a number out of range, a string
   * too long for its column): the request's fault, 400, never a 500 that blames the server.
   */
  invalidInput: 'invalid-input',
} as const;

export type ConnectorCategoryName = (typeof ConnectorCategory)[keyof typeof ConnectorCategory];

export interface ConnectorErrorOptions {
  /** `<kind>.<name>` */
  readonly connection: string;
  readonly category?: ConnectorCategoryName | undefined;
  /** SQLSTATE of a database error. */
  readonly code?: string | undefined;
  /**
   * Further codes a `catch` block matches: the engine's own (a MySQL error number such as "1062", a
   * SQLite result code name such as "SQLITE_CONSTRAINT_UNIQUE") and, for a constraint, PostgreSQL's
   * SQLSTATE of its class (23505 unique, 23503 foreign key, 23502 not null, 23514 check), so one
   * manifest's catch blocks mean the same on every engine.
   */
  readonly codes?: readonly string[] | undefined;
  readonly cause?: unknown;
}

/**
 * Thrown by handles. The message is for logs (it may hold the server's message, never a password);
 * src/http never shows it to a client.
 */
export class ConnectorError extends Error {
  override readonly name: string = 'ConnectorError';
  readonly connection: string;
  readonly category: ConnectorCategoryName | undefined;
  readonly code: string | undefined;
  readonly codes: readonly string[] | undefined;

  constructor(message: string, options: ConnectorErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.connection = options.connection;
    this.category = options.category;
    this.code = options.code;
    this.codes = options.codes;
  }
}

/** A connection that could not be opened at boot: the message names it, its redacted URL and the cause. */
export class ConnectorOpenError extends ConnectorError {
  override readonly name = 'ConnectorOpenError';
  /** The URL as shown (password redacted). */
  readonly url: string;
  /** How many pings were tried (1 when the failure was not worth retrying). */
  readonly attempts: number;

  constructor(
    label: string,
    url: string,
    /** Why, already free of the label and of any password. */
    detail: string,
    options: ConnectorErrorOptions & { readonly attempts: number },
  ) {
    const tries = options.attempts > 1 ? ` after ${options.attempts} attempts` : '';
    super(`${label} (${url}) could not be opened${tries}: ${detail}`, options);
    this.url = url;
    this.attempts = options.attempts;
  }
}

/** A cause as one line of text; Node reports "every address refused" as an AggregateError with no message. */
export function describeCause(cause: unknown): string {
  // Node's AggregateError (every address of a host refused) has an empty message; its parts do not.
  if (cause instanceof AggregateError && cause.message === '' && cause.errors.length > 0) return describeCause(cause.errors[0]);
  return messageOf(cause);
}
