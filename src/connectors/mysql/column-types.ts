/**
 * The JSON Schema of a MySQL/MariaDB column's values, from its column definition as the server
 * describes a prepared statement: what ./values.ts (and mysql2 before it) hands over for that type
 * (docs/mysql.md "Types" and "Checking queries"). Nullability is the caller's (the NOT_NULL flag).
 */
import type { ColumnInfo } from './values.js';

type Schema = Readonly<Record<string, unknown>>;

/** The protocol's type codes. */
const T = {
  DECIMAL: 0,
  TINY: 1,
  SHORT: 2,
  LONG: 3,
  FLOAT: 4,
  DOUBLE: 5,
  NULL: 6,
  TIMESTAMP: 7,
  LONGLONG: 8,
  INT24: 9,
  DATE: 10,
  TIME: 11,
  DATETIME: 12,
  YEAR: 13,
  NEWDATE: 14,
  VARCHAR: 15,
  BIT: 16,
  JSON: 245,
  NEWDECIMAL: 246,
  ENUM: 247,
  SET: 248,
  TINY_BLOB: 249,
  MEDIUM_BLOB: 250,
  LONG_BLOB: 251,
  BLOB: 252,
  VAR_STRING: 253,
  STRING: 254,
  GEOMETRY: 255,
} as const;

const BINARY_CHARSET = 63;
const INTEGER: Schema = { type: 'integer' };
const NUMBER: Schema = { type: 'number' };
const STRING: Schema = { type: 'string' };
const ANY: Schema = {};
const STRINGS: ReadonlySet<number> = new Set([T.VARCHAR, T.ENUM, T.SET, T.TINY_BLOB, T.MEDIUM_BLOB, T.LONG_BLOB, T.BLOB, T.VAR_STRING, T.STRING]);

/** What is read of a column definition, beyond ./values.ts's `ColumnInfo`. */
export interface DescribedColumnInfo extends ColumnInfo {
  /** MariaDB's extended metadata: `json` for its JSON type and the JSON functions' results. */
  readonly extendedFormat?: string;
}

export function mysqlColumnSchema(column: DescribedColumnInfo): Schema {
  // Parsed by mysql2 (MySQL's JSON type; MariaDB's, flagged in the extended metadata).
  if (column.columnType === T.JSON || column.extendedFormat === 'json') return ANY;
  switch (column.columnType) {
    case T.TINY:
      return column.columnLength === 1 ? { type: 'boolean' } : INTEGER;
    case T.SHORT:
    case T.LONG:
    case T.INT24:
    case T.LONGLONG:
    case T.YEAR:
      return INTEGER;
    case T.FLOAT:
    case T.DOUBLE:
      return NUMBER;
    case T.DECIMAL:
    case T.NEWDECIMAL:
      return { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' };
    case T.DATE:
    case T.NEWDATE:
      return { type: 'string', format: 'date' };
    case T.DATETIME:
      return STRING; // ISO 8601 without an offset: not RFC 3339's date-time
    case T.TIMESTAMP:
      return { type: 'string', format: 'date-time' };
    case T.TIME:
      return STRING;
    case T.BIT:
      return { type: 'string', contentEncoding: 'base64' };
    case T.NULL:
    case T.GEOMETRY:
      return ANY;
    default:
      if (STRINGS.has(column.columnType ?? -1)) return column.characterSet === BINARY_CHARSET ? { type: 'string', contentEncoding: 'base64' } : STRING;
      return ANY;
  }
}
