/**
 * The JSON Schema of a column the database described (`svc openapi --database`, `check_queries =
 * true`): for PostgreSQL, by the type's oid, what svc writes for such a value as the connector hands
 * it over (src/connectors/postgres/values.ts, then pg's parsers; a type pg does not parse arrives as
 * text); SQLite and MySQL columns come with their schema, used as it is. A column the database says
 * cannot be null (NOT NULL, outside an outer join) has its type; any other may be null.
 */
import type { JsonSchema } from '../schema/index.js';

/** What the database told of one column (src/connectors `ColumnDescription`, read structurally). */
export interface SqlColumn {
  readonly name: string;
  /** PostgreSQL's: the type oid, mapped below. */
  readonly typeOid?: number;
  readonly enumLabels?: readonly string[];
  /** Other engines': the values' schema as their connector knows it (null aside), used as it is. */
  readonly schema?: Readonly<JsonSchema>;
  readonly notNull: boolean;
}

/** The described columns of the sql steps that return rows, by step spec. */
export type SqlColumns = ReadonlyMap<object, readonly SqlColumn[]>;

const INTEGER: JsonSchema = { type: 'integer' };
const NUMBER: JsonSchema = { type: 'number' };
const STRING: JsonSchema = { type: 'string' };
const OBJECT: JsonSchema = { type: 'object' };
const POINT: JsonSchema = { type: 'object', properties: { x: NUMBER, y: NUMBER }, required: ['x', 'y'] };

const SCALARS: ReadonlyMap<number, JsonSchema> = new Map<number, JsonSchema>([
  [16, { type: 'boolean' }], // bool
  [20, INTEGER], // int8: a JS number when safe, else a BigInt written as the exact number
  [21, INTEGER], // int2
  [23, INTEGER], // int4
  [26, INTEGER], // oid
  [700, NUMBER], // float4
  [701, NUMBER], // float8
  [1700, { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$|^NaN$|^-?Infinity$' }], // numeric: its decimal text
  [2950, { type: 'string', format: 'uuid' }],
  [114, {}], // json
  [3802, {}], // jsonb
  [1082, { type: 'string', format: 'date' }],
  [1114, STRING], // timestamp without time zone: ISO 8601 without an offset, not RFC 3339
  [1184, { type: 'string', format: 'date-time' }], // timestamptz
  [17, { type: 'string', contentEncoding: 'base64' }], // bytea
  [1186, OBJECT], // interval: pg's PostgresInterval ({ "hours": 1, "minutes": 30 })
  [600, POINT],
  [718, { type: 'object', properties: { x: NUMBER, y: NUMBER, radius: NUMBER }, required: ['x', 'y', 'radius'] }], // circle
]);

/** The array types pg parses, by oid, with the oid of their element's schema above (or a schema). */
const ARRAYS: ReadonlyMap<number, JsonSchema> = new Map<number, JsonSchema>([
  [1000, SCALARS.get(16)!],
  [1005, INTEGER],
  [1007, INTEGER],
  [1016, INTEGER],
  [1028, INTEGER],
  [1021, NUMBER],
  [1022, NUMBER],
  [1231, NUMBER], // numeric[]: pg parses its elements as numbers
  [1014, STRING], // char[]
  [1015, STRING], // varchar[]
  [1008, STRING], // regproc[]
  [1009, STRING], // text[]
  [1040, STRING], // macaddr[]
  [1041, STRING], // inet[]
  [651, STRING], // cidr[]
  [2951, SCALARS.get(2950)!], // uuid[]
  [791, STRING], // money[]
  [1183, STRING], // time[]
  [1270, STRING], // timetz[]
  [3907, STRING], // numrange[]
  [1182, SCALARS.get(1082)!], // date[]
  [1115, STRING], // timestamp[]
  [1185, SCALARS.get(1184)!], // timestamptz[]
  [1187, OBJECT], // interval[]
  [199, {}], // json[]
  [3807, {}], // jsonb[]
  [1001, SCALARS.get(17)!], // bytea[]
  [1017, POINT], // point[]
]);

/** The schema of one column's values. */
export function columnSchema(column: SqlColumn): JsonSchema {
  const array = column.typeOid === undefined ? undefined : ARRAYS.get(column.typeOid);
  let schema: JsonSchema;
  if (column.schema !== undefined) schema = { ...column.schema };
  else if (column.typeOid === undefined) schema = {};
  else if (array !== undefined) schema = { type: 'array', items: array };
  else if (column.enumLabels !== undefined) schema = { type: 'string', enum: [...column.enumLabels] };
  else schema = SCALARS.get(column.typeOid) ?? STRING;
  return column.notNull ? schema : nullable(schema);
}

/** `schema` or null. */
function nullable(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type !== 'string') return schema; // `{}` admits null already
  const out: JsonSchema = { ...schema, type: [type, 'null'] };
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  return out;
}

/** One row: an object with every described column (the last of two with one name wins, as in the row). */
export function describedRowSchema(columns: readonly SqlColumn[]): JsonSchema {
  const properties: JsonSchema = {};
  for (const c of columns) properties[c.name] = columnSchema(c);
  return { type: 'object', properties, required: Object.keys(properties) };
}
