/**
 * Column values as JSON can carry them, decided once for every result and kept beside PostgreSQL's
 * (../postgres/values.ts; docs/mysql.md "Types" has the table). mysql2 is configured with
 * `supportBigNumbers` (a BIGINT past 2^53 arrives as its decimal text, never a rounded number),
 * `dateStrings` (dates as the server wrote them, never a Date read in the process' time zone) and
 * `decimalNumbers: false` (DECIMAL as its text); this `typeCast` finishes the job:
 *
 * - BIGINT: a number when it is a safe integer, else a BigInt, which the HTTP layer writes as the
 *   exact JSON number it is (as PostgreSQL's int8).
 * - TINYINT(1), which is what MySQL's BOOLEAN is: true or false (0 is false, anything else true).
 * - DATETIME: ISO 8601 text without an offset, as stored, the fraction without trailing zeros (as
 *   PostgreSQL's timestamp): "2024-05-06T07:08:09.5".
 * - TIMESTAMP: RFC 3339 text in UTC with milliseconds ("2024-05-06T07:08:09.123Z", as PostgreSQL's
 *   timestamptz). Every connection's session runs in UTC (`time_zone = '+00:00'`, ./resource.ts), so
 *   the server's text is UTC already.
 * - DATE: "YYYY-MM-DD" as stored. A zero date ("0000-00-00", MySQL's "no date" where sql_mode
 *   allows one) is null: no calendar has it.
 * - binary strings (BLOB, BINARY, VARBINARY, BIT): base64 text (as PostgreSQL's bytea).
 * - JSON columns: parsed by mysql2 (MySQL's JSON type, and MariaDB's, which is LONGTEXT on the wire
 *   but flagged json in the extended metadata mysql2 asks for).
 * - DECIMAL: its text ("12.50"), exact. Everything else as mysql2 reads it (numbers, text).
 */

/** mysql2's view of a column in a `typeCast` (the part used here). */
interface CastField {
  readonly type: string;
  readonly length: number;
}

export function castValue(field: CastField, next: () => unknown): unknown {
  switch (field.type) {
    case 'LONGLONG': {
      const value = next();
      return typeof value === 'string' ? BigInt(value) : value;
    }
    case 'TINY': {
      const value = next();
      return field.length === 1 && value !== null ? value !== 0 : value;
    }
    case 'DATETIME':
      return datetime(next() as string | null);
    case 'TIMESTAMP':
      return timestamp(next() as string | null);
    case 'DATE':
    case 'NEWDATE': {
      const value = next() as string | null;
      return value === null || value.startsWith('0000-00-00') ? null : value;
    }
    case 'BLOB':
    case 'TINY_BLOB':
    case 'MEDIUM_BLOB':
    case 'LONG_BLOB':
    case 'STRING':
    case 'VAR_STRING':
    case 'BIT': {
      const value = next();
      return Buffer.isBuffer(value) ? value.toString('base64') : value;
    }
    default:
      return next();
  }
}

/** "2024-05-06 07:08:09.500" -> "2024-05-06T07:08:09.5"; the text protocol pads the fraction, the binary one drops a zero one. */
export function datetime(text: string | null): string | null {
  if (text === null || text.startsWith('0000-00-00')) return null;
  let end = text.length;
  if (text.length > 19) {
    while (end > 19 && text.charCodeAt(end - 1) === 48 /* 0 */) end--;
    if (end === 20) end = 19; // the dot alone
  }
  return `${text.slice(0, 10)}T${text.slice(11, end)}`;
}

/** "2024-05-06 07:08:09.123456" (UTC) -> "2024-05-06T07:08:09.123Z": what a Date would be written as. */
export function timestamp(text: string | null): string | null {
  if (text === null || text.startsWith('0000-00-00')) return null;
  const millis = text.length > 20 ? `${text.slice(20, 23)}00`.slice(0, 3) : '000';
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${millis}Z`;
}
