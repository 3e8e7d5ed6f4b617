/**
 * Values in and out of SQLite, decided once for every statement (docs/sqlite.md "Types"):
 *
 * In (a parameter): a whole number binds as an INTEGER (node:sqlite would bind every JS number as a
 * REAL, and `LIMIT 2.0` or a REAL in an untyped column is not what was meant), a boolean as 1 or 0,
 * a map or a list as its JSON text, null as NULL.
 *
 * Out (a column): the engine's INTEGERs are read as BigInts (node:sqlite throws on one past 2^53
 * otherwise) and become numbers when exact, as PostgreSQL's int8 does; a column declared BOOLEAN
 * (or BOOL) gives true/false for 1/0; one declared JSON (or JSONB) gives the parsed value of its
 * text; a BLOB gives base64 text. Everything else is what SQLite stored: REAL a number, TEXT a
 * string (dates included: SQLite has no date type).
 */
import type { SqliteColumn } from './driver.js';

/** 2^63: the first whole number an INTEGER cannot hold; larger ones stay REALs. */
const INT64_LIMIT = 2 ** 63;

export function toSqliteValue(value: unknown): unknown {
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) && Math.abs(value) < INT64_LIMIT ? BigInt(value) : value;
    case 'boolean':
      return value ? 1n : 0n;
    case 'undefined':
      return null;
    case 'object':
      if (value === null || value instanceof Uint8Array) return value;
      return JSON.stringify(value, exactBigInts);
    default:
      return value;
  }
}

/** Node 21+ (every line with node:sqlite): a JSON number written as the given text. */
const rawJSON = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON;

/** A BigInt in a map or list is written as the exact number it is. */
function exactBigInts(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' && rawJSON !== undefined ? rawJSON(value.toString()) : value;
}

type Reader = (value: unknown) => unknown;

/** A whole number as a JS number when exact, else the BigInt itself. */
function integer(value: unknown): unknown {
  if (typeof value !== 'bigint') return value;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

function boolean(value: unknown): unknown {
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'number') return value !== 0;
  return value;
}

function json(value: unknown): unknown {
  if (typeof value !== 'string') return any(value);
  try {
    return JSON.parse(value) as unknown;
  } catch {
    // Text that is no JSON (SQLite does not check a JSON column's values) is given as it is.
    return value;
  }
}

function any(value: unknown): unknown {
  if (typeof value === 'bigint') return integer(value);
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  return value;
}

function readerOf(declared: string | null): Reader {
  const type = declared?.trim().toUpperCase() ?? '';
  if (type === 'BOOLEAN' || type === 'BOOL') return boolean;
  if (type === 'JSON' || type === 'JSONB') return json;
  return any;
}

/**
 * Plain objects in the row shape a response writes, from the engine's rows read as arrays in column
 * order (statement.ts sets `setReturnArrays`). The engine makes each row object with a null
 * prototype through V8's API, which gives every one a Map of its own, in the old generation (72
 * bytes a row, collected late: bench/sqlite README "A Map per row"); arrays share one, and the
 * export runs a fifth faster. A repeated name keeps the last column's value, as the engine's
 * objects did.
 */
export type RowReader = (row: readonly unknown[]) => Record<string, unknown>;

/** The reader of one statement's rows, from its columns (computed once per prepared statement). */
export function rowReader(columns: readonly SqliteColumn[]): RowReader {
  const names = columns.map((c) => c.name);
  const readers = columns.map((c) => readerOf(c.type));
  const count = names.length;
  return (row) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < count; i++) out[names[i]!] = readers[i]!(row[i]);
    return out;
  };
}
