/**
 * What each expression function returns, as a schema, given what its arguments are. A function not
 * listed returns `{}` (anything): the document never claims more than the function guarantees.
 */
import type { JsonSchema } from '../schema/index.js';
import { ANY, unionOf } from './schema-union.js';

type ReturnSchema = (args: readonly JsonSchema[], problem: JsonSchema) => JsonSchema;

const STRING: JsonSchema = { type: 'string' };
const INTEGER: JsonSchema = { type: 'integer' };
const NUMBER: JsonSchema = { type: 'number' };
const BOOLEAN: JsonSchema = { type: 'boolean' };
const UUID: JsonSchema = { type: 'string', format: 'uuid' };
const STRINGS: JsonSchema = { type: 'array', items: STRING };

const returnsString: ReturnSchema = () => STRING;

/** Integer when every argument is, else number (`min`, `max`, `abs`). */
const numeric: ReturnSchema = (args) => (args.length > 0 && args.every(isInteger) ? INTEGER : NUMBER);

const FUNCTIONS: Readonly<Record<string, ReturnSchema>> = {
  problem: (_args, problem) => problem,
  env: returnsString,
  json_encode: returnsString,
  json_decode: () => ANY,
  uuid: () => UUID,
  uuid_v4: () => UUID,
  uuid_v7: () => UUID,
  now: () => ({ type: 'string', format: 'date-time' }),
  lower: returnsString,
  upper: returnsString,
  trim: returnsString,
  trim_space: returnsString,
  trim_prefix: returnsString,
  trim_suffix: returnsString,
  split: () => STRINGS,
  join: returnsString,
  replace: returnsString,
  format: returnsString,
  coalesce: (args) => unionOf(args.filter((a) => a.type !== 'null')),
  length: () => INTEGER,
  merge: () => ({ type: 'object' }),
  lookup: (args) => (args.length >= 3 ? unionOf([valuesOf(args[0]!), args[2]!]) : valuesOf(args[0] ?? ANY)),
  keys: () => STRINGS,
  values: (args) => ({ type: 'array', items: valuesOf(args[0] ?? ANY) }),
  contains: () => BOOLEAN,
  base64_encode: returnsString,
  base64_decode: returnsString,
  url_encode: returnsString,
  url_decode: returnsString,
  sha256: returnsString,
  md5: returnsString,
  hmac_sha256: returnsString,
  min: numeric,
  max: numeric,
  abs: numeric,
  ceil: () => INTEGER,
  floor: () => INTEGER,
  parse_int: () => INTEGER,
  tostring: returnsString,
  tonumber: () => NUMBER,
};

export function functionResult(name: string, args: readonly JsonSchema[], problem: JsonSchema): JsonSchema {
  const fn = FUNCTIONS[name];
  return fn === undefined ? ANY : fn(args, problem);
}

function isInteger(s: JsonSchema): boolean {
  return s.type === 'integer';
}

/** The schema of a map's values: an object literal's members, a map's `additionalProperties`. */
function valuesOf(map: JsonSchema): JsonSchema {
  if (map.properties !== undefined && typeof map.properties === 'object') {
    return unionOf(Object.values(map.properties as Record<string, JsonSchema>).map(widen));
  }
  if (typeof map.additionalProperties === 'object') return map.additionalProperties as JsonSchema;
  return ANY;
}

/** A literal's type without its value: `lookup({a = 1, b = 2}, k)` is some integer, not 1 or 2. */
function widen(s: JsonSchema): JsonSchema {
  if ('const' in s && typeof s.type === 'string') return { type: s.type };
  return s;
}
