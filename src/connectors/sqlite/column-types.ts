/**
 * The JSON Schema of a SQLite column's values, from the type its origin column declares: what
 * ./values.ts hands over for it (docs/sqlite.md "Checking queries"). SQLite stores any value in any
 * column of an ordinary table (a declared type is an affinity, https://sqlite.org/datatype3.html
 * §3.1); the schema says what the declaration makes of the values a table is written with:
 *
 * - BOOLEAN, BOOL: true/false (./values.ts reads them so);
 * - JSON, JSONB: the parsed value, anything;
 * - INTEGER affinity (the name holds INT): an exact whole number;
 * - TEXT affinity (CHAR, CLOB, TEXT): a string;
 * - BLOB: base64 text;
 * - REAL affinity (REAL, FLOA, DOUB): a number;
 * - NUMERIC affinity: a number (DECIMAL(10,2) stores 12.50 as the REAL 12.5), except the date and
 *   time names (DATE, DATETIME, TIMESTAMP, TIME), whose text is not a number and stays a string.
 *
 * An expression (`count(*)`, `a + 1`) and a column declared without a type have no declared type:
 * their values may be anything, `{}`.
 */

type Schema = Readonly<Record<string, unknown>>;

const ANY: Schema = {};

export function sqliteColumnSchema(declared: string | null): Schema {
  const type = declared?.trim().toUpperCase() ?? '';
  if (type === '') return ANY;
  if (type === 'BOOLEAN' || type === 'BOOL') return { type: 'boolean' };
  if (type === 'JSON' || type === 'JSONB') return ANY;
  // The affinity rules, in SQLite's order.
  if (type.includes('INT')) return { type: 'integer' };
  if (type.includes('CHAR') || type.includes('CLOB') || type.includes('TEXT')) return { type: 'string' };
  if (type.includes('BLOB')) return { type: 'string', contentEncoding: 'base64' };
  if (type.includes('REAL') || type.includes('FLOA') || type.includes('DOUB')) return { type: 'number' };
  if (type.includes('DATE') || type.includes('TIME')) return { type: 'string' };
  return { type: 'number' };
}
