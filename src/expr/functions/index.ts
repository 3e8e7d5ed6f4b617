/**
 * The standard function library (DECISIONS.md §2): one definition per file, registered here.
 * Add a function by adding a file and a line below.
 */
import { coalesce } from './coalesce.js';
import { contains } from './contains.js';
import { has } from './has.js';
import { keys } from './keys.js';
import { lookup } from './lookup.js';
import { merge } from './merge.js';
import { values } from './values.js';
import { lower } from './lower.js';
import { upper } from './upper.js';
import { tonumber } from './tonumber.js';
import { tostring } from './tostring.js';
import { base64Decode } from './base64-decode.js';
import { base64Encode } from './base64-encode.js';
import { urlDecode } from './url-decode.js';
import { urlEncode } from './url-encode.js';
import { env } from './env.js';
import { formatFn } from './format.js';
import { hmacSha256 } from './hmac-sha256.js';
import { md5 } from './md5.js';
import { sha256 } from './sha256.js';
import { jsonDecode } from './json-decode.js';
import { jsonEncode } from './json-encode.js';
import { length } from './length.js';
import { abs } from './abs.js';
import { ceil } from './ceil.js';
import { floor } from './floor.js';
import { max } from './max.js';
import { min } from './min.js';
import { now } from './now.js';
import { parseIntFunction } from './parse-int.js';
import { problem } from './problem.js';
import { replace } from './replace.js';
import { join } from './join.js';
import { split } from './split.js';
import { trim } from './trim.js';
import { trimPrefix } from './trim-prefix.js';
import { trimSpace } from './trim-space.js';
import { trimSuffix } from './trim-suffix.js';
import { unencoded } from './unencoded.js';
import type { FunctionDef, FunctionTable } from './types.js';
import { uuid } from './uuid.js';
import { uuidV4 } from './uuid-v4.js';
import { uuidV7 } from './uuid-v7.js';

export type { FunctionDef, FunctionTable } from './types.js';

const all: readonly FunctionDef[] = [
  env,
  problem,
  jsonEncode,
  jsonDecode,
  uuid,
  uuidV4,
  uuidV7,
  now,
  lower,
  upper,
  trim,
  trimSpace,
  trimPrefix,
  trimSuffix,
  split,
  join,
  replace,
  formatFn,
  coalesce,
  length,
  merge,
  lookup,
  has,
  keys,
  values,
  contains,
  base64Encode,
  base64Decode,
  urlEncode,
  urlDecode,
  unencoded,
  sha256,
  md5,
  hmacSha256,
  min,
  max,
  abs,
  ceil,
  floor,
  parseIntFunction,
  tostring,
  tonumber,
];

export const standardFunctions: FunctionTable = new Map(all.map((f) => [f.name, f]));
