/**
 * The standard function library (DECISIONS.md §2): one definition per file, registered here.
 * Add a function by adding a file and a line below.
 */
import { coalesce } from './coalesce.js';
import { contains, keys, lookup, merge, values } from './collections.js';
import { lower, upper } from './case.js';
import { tonumber, tostring } from './convert.js';
import { base64Decode, base64Encode, urlDecode, urlEncode } from './encoding.js';
import { env } from './env.js';
import { formatFn } from './format.js';
import { hmacSha256, md5, sha256 } from './hash.js';
import { jsonDecode, jsonEncode } from './json.js';
import { length } from './length.js';
import { abs, ceil, floor, max, min } from './math.js';
import { now } from './now.js';
import { parseInt } from './parse-int.js';
import { problem } from './problem.js';
import { replace } from './replace.js';
import { join, split } from './split-join.js';
import { trim, trimPrefix, trimSpace, trimSuffix } from './trim.js';
import type { FunctionDef, FunctionTable } from './types.js';
import { uuid, uuidV4, uuidV7 } from './uuid.js';

export type { FunctionDef, FunctionTable } from './types.js';
export { defineFunction } from './types.js';

const all: readonly FunctionDef[] = [
  env, problem, jsonEncode, jsonDecode, uuid, uuidV4, uuidV7, now,
  lower, upper, trim, trimSpace, trimPrefix, trimSuffix, split, join, replace, formatFn,
  coalesce, length, merge, lookup, keys, values, contains,
  base64Encode, base64Decode, urlEncode, urlDecode, sha256, md5, hmacSha256,
  min, max, abs, ceil, floor, parseInt, tostring, tonumber,
];

export const standardFunctions: FunctionTable = new Map(all.map((f) => [f.name, f]));

/** A table with extra (or replaced) functions on top of another. */
export function extendFunctions(base: FunctionTable, extra: Iterable<FunctionDef>): FunctionTable {
  const m = new Map(base);
  for (const f of extra) m.set(f.name, f);
  return m;
}
