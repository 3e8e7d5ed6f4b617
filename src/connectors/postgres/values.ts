/**
 * Column values as JSON can carry them, decided once for every result (docs/postgresql.md "Values
 * from the database"): the pool parses text results with these parsers instead of pg's defaults.
 *
 * int8 a number when safe, else a BigInt (written as the exact JSON number); numeric the server's
 * decimal text; bytea base64; date and timestamp as stored (pg's Date would shift them by the
 * process' time zone); timestamptz RFC 3339 in UTC with milliseconds, a UTC session's text rewritten
 * rather than parsed into a Date (bench/users README "After timestamptz without a Date"). Arrays of
 * these element by element; json/jsonb and other arrays as pg parses them.
 */
import pg from 'pg';

const OID = {
  int8: 20,
  bytea: 17,
  date: 1082,
  timestamp: 1114,
  timestamptz: 1184,
  int8Array: 1016,
  byteaArray: 1001,
  dateArray: 1182,
  timestampArray: 1115,
  timestamptzArray: 1185,
} as const;

function int8(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}

/** bytea in hex output format (`\x0102ff`, the server default since 9.0) or the older escape format. */
function bytea(text: string): string {
  if (text.startsWith('\\x')) return Buffer.from(text.slice(2), 'hex').toString('base64');
  const parse = pg.types.getTypeParser(OID.bytea) as (t: string) => Buffer;
  return parse(text).toString('base64');
}

function timestamp(text: string): string {
  return text.replace(' ', 'T');
}

/** A timestamptz as the server writes it in a UTC session (ISO DateStyle, a four-digit year). */
const UTC_TIMESTAMPTZ = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?\+00$/;

/** pg's own reading of a timestamptz: a Date, or a number for an infinity. */
const parseTimestamptz = pg.types.getTypeParser(OID.timestamptz) as (text: string) => unknown;

/**
 * "2024-05-06 07:08:09.123456+00" becomes "2024-05-06T07:08:09.123Z": the first three digits of the
 * fraction, as a Date keeps them (checked against pg's Date for every fraction of up to six digits).
 * Other offsets, BC years, five-digit years and infinities are pg's Date's to read; an infinity stays
 * the number pg makes of it (written as JSON null).
 */
function timestamptz(text: string): string | number | null {
  if (UTC_TIMESTAMPTZ.test(text)) {
    const fractionEnd = text.length - 3;
    const millis = fractionEnd === 19 ? '.000' : `${text.slice(19, Math.min(fractionEnd, 23))}000`.slice(0, 4);
    return `${text.slice(0, 10)}T${text.slice(11, 19)}${millis}Z`;
  }
  const parsed = parseTimestamptz(text) as Date | number | null;
  if (!(parsed instanceof Date)) return parsed;
  return Number.isNaN(parsed.getTime()) ? null : parsed.toISOString();
}

function date(text: string): string {
  return text;
}

/** pg-types' array parser; @types/pg describes an older shape of it (a function). */
const arrayParser = pg.types.arrayParser as unknown as {
  create(text: string, element: (text: string) => unknown): { parse(): unknown[] };
};

function arrayOf<T>(element: (text: string) => T): (text: string) => (T | null)[] {
  return (text) => arrayParser.create(text, element).parse() as (T | null)[];
}

const PARSERS: ReadonlyMap<number, (text: string) => unknown> = new Map<number, (text: string) => unknown>([
  [OID.int8, int8],
  [OID.bytea, bytea],
  [OID.date, date],
  [OID.timestamp, timestamp],
  [OID.timestamptz, timestamptz],
  [OID.int8Array, arrayOf(int8)],
  [OID.byteaArray, arrayOf(bytea)],
  [OID.dateArray, arrayOf(date)],
  [OID.timestampArray, arrayOf(timestamp)],
  [OID.timestamptzArray, arrayOf(timestamptz)],
]);

/** The `types` of every pool: ours for the types above, pg's for the rest. */
export const JSON_SAFE_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary') {
      const parser = PARSERS.get(oid);
      if (parser) return parser;
    }
    return format === undefined ? pg.types.getTypeParser(oid) : pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};
