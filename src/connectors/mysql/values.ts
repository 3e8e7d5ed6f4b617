/**
 * Column values as JSON can carry them, decided once for every result and kept beside PostgreSQL's
 * (../postgres/values.ts; docs/mysql.md "Types" has the table). mysql2 is configured with
 * `supportBigNumbers` (a BIGINT past 2^53 arrives as its decimal text, never a rounded number),
 * `dateStrings` (dates as the server wrote them, never a Date read in the process' time zone) and
 * `decimalNumbers: false` (DECIMAL as its text); `rowConverter` finishes the job:
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
 * - FLOAT: the shortest decimal of its 32-bit value (0.1, not the 0.10000000149011612 a prepared
 *   statement's binary answer widens it to).
 * - DECIMAL: its text ("12.50"), exact. Everything else as mysql2 reads it (numbers, text).
 */

/** What is read of mysql2's column definitions (its FieldPacket). */
export interface ColumnInfo {
  readonly name: string;
  readonly columnType?: number;
  readonly columnLength?: number;
  readonly characterSet?: number;
}

/** mysql2's type codes (the protocol's) of the columns converted here. */
const TYPE = { TINY: 1, FLOAT: 4, TIMESTAMP: 7, LONGLONG: 8, DATE: 10, DATETIME: 12, NEWDATE: 14, BIT: 16 } as const;
/** BLOB, TINY_BLOB, MEDIUM_BLOB, LONG_BLOB, VAR_STRING, STRING: bytes when their character set is binary. */
const BYTE_TYPES: ReadonlySet<number> = new Set([249, 250, 251, 252, 253, 254, TYPE.BIT]);
const BINARY_CHARSET = 63;

type Convert = (value: unknown) => unknown;

/**
 * The conversion of each column that needs one, decided once per result from its column
 * definitions, and applied to each row in place; undefined when no column needs one (a row of
 * INT and VARCHAR is handed over as mysql2 built it). Not mysql2's `typeCast`: on prepared
 * statements (its binary protocol) a typeCast function builds a field wrapper per value, which made
 * a streamed export 15 times slower (bench/mysql/README.md).
 */
export function rowConverter(fields: readonly ColumnInfo[] | undefined): ((row: Record<string, unknown>) => void) | undefined {
  if (fields === undefined) return undefined;
  const names: string[] = [];
  const converts: Convert[] = [];
  for (const field of fields) {
    const convert = converterOf(field);
    if (convert === undefined) continue;
    names.push(field.name);
    converts.push(convert);
  }
  if (names.length === 0) return undefined;
  return (row) => {
    for (let i = 0; i < names.length; i++) {
      const value = row[names[i]!];
      if (value !== null && value !== undefined) row[names[i]!] = converts[i]!(value);
    }
  };
}

function converterOf(field: ColumnInfo): Convert | undefined {
  switch (field.columnType) {
    case TYPE.LONGLONG:
      return bigint;
    case TYPE.TINY:
      return field.columnLength === 1 ? boolean : undefined;
    case TYPE.FLOAT:
      return float32;
    case TYPE.DATETIME:
      return datetime as Convert;
    case TYPE.TIMESTAMP:
      return timestamp as Convert;
    case TYPE.DATE:
    case TYPE.NEWDATE:
      return date as Convert;
    default:
      return BYTE_TYPES.has(field.columnType ?? -1) && field.characterSet === BINARY_CHARSET ? base64 : undefined;
  }
}

/** supportBigNumbers hands over a BIGINT past 2^53 as its text. */
function bigint(value: unknown): unknown {
  return typeof value === 'string' ? BigInt(value) : value;
}

/**
 * A FLOAT arrives from a prepared statement as its 32 bits widened to a double (0.1 as
 * 0.10000000149011612): written as the shortest decimal that reads back as the same 32-bit value
 * (0.1), which is what the server itself prints and PostgreSQL's float4 gives.
 */
function float32(value: unknown): unknown {
  if (typeof value !== 'number' || !Number.isFinite(value)) return value;
  for (let digits = 1; digits < 9; digits++) {
    const shorter = Number(value.toPrecision(digits));
    if (Math.fround(shorter) === value) return shorter;
  }
  return value;
}

function boolean(value: unknown): boolean {
  return value !== 0;
}

function base64(value: unknown): unknown {
  return Buffer.isBuffer(value) ? value.toString('base64') : value;
}

function date(text: string): string | null {
  return text.startsWith('0000-00-00') ? null : text;
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
