// Host API of the Starlark interpreter. Nothing here (or anywhere under
// src/starlark) imports the rest of the project or does any I/O.
//
//   const { program, errors } = compileModule(src, 'transform.star', { predeclared: ['env'] });
//   const mod = program!.init({ predeclared: { env: fromJS({...}) } });      // globals frozen
//   const out = toJS(callFunction(mod, 'execute', [fromJS(ctx)], { maxSteps: 1e6, timeoutMs: 1000 }));

import * as I from './values/int.js';
import { decodeUTF8, encodeUTF8 } from './values/utf8.js';
import { dictSet, setAdd, forEach } from './values/ops.js';
import { repr, typeName } from './values/repr.js';
import {
  Bytes, Dict, Float, HeadersDict, List, SSet, SValue, Struct, Tuple, type Value,
} from './values/types.js';
import { StarlarkError } from './program.js';
import { StringIterable } from './methods/str.js';

export {
  compileModule, callFunction, compileError, Program, StarlarkModule, StarlarkError,
  DEFAULT_MAX_STEPS, DEFAULT_TIMEOUT_MS, DEFAULT_MAX_DEPTH, DEFAULT_FILE_OPTIONS,
  type CompileOptions, type InitOptions, type RunOptions, type StarlarkDiagnostic,
} from './program.js';
export { DEFAULT_SIZE_LIMITS, type SizeLimits } from './values/limits.js';
export type { FileOptions } from './resolve.js';
export {
  Builtin, Bytes, Dict, Float, HeadersDict, List, Module, SSet, SValue, Struct, Tuple, type Value,
} from './values/types.js';
export { repr, str, typeName } from './values/repr.js';
export { decodeJSON, encodeJSON } from './json.js';
export { encodeUTF8, decodeUTF8 } from './values/utf8.js';

/**
 * Convert a JS value to a Starlark value. JSON-like data maps exactly:
 * null/undefined -> None, booleans, integral numbers -> int, other numbers ->
 * float, bigint -> int, strings -> str, arrays -> list, plain objects and Maps
 * -> dict (insertion order), Sets -> set, Uint8Array -> bytes. Starlark values
 * (e.g. a headers dict) pass through unchanged.
 */
export function fromJS(v: unknown): Value {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean': return v;
    case 'number':
      if (Number.isInteger(v)) return Number.isSafeInteger(v) ? v + 0 : I.norm(BigInt(v));
      return new Float(v);
    case 'bigint': return I.norm(v);
    case 'string': return encodeUTF8(v);
    case 'object': break;
    default: throw new StarlarkError('convert', `cannot convert JS ${typeof v} to a Starlark value`);
  }
  if (Array.isArray(v)) {
    const out = new Array<Value>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = fromJS(v[i]);
    return new List(out);
  }
  if (Object.getPrototypeOf(v) === Object.prototype) return objectToDict(v as Record<string, unknown>);
  if (v instanceof SValue) return v;
  if (v instanceof Uint8Array) return new Bytes(Buffer.from(v).toString('latin1'));
  if (v instanceof Map) {
    const d = new Dict();
    for (const [k, x] of v) dictSet(d, fromJS(k), fromJS(x));
    return d;
  }
  if (v instanceof Set) {
    const s = new SSet();
    for (const x of v) setAdd(s, fromJS(x));
    return s;
  }
  if (v instanceof Date) return encodeUTF8(v.toISOString());
  return objectToDict(v as Record<string, unknown>);
}

function objectToDict(o: Record<string, unknown>): Dict {
  // string keys map to themselves in the hash table (see HashTable)
  const d = new Dict();
  const vals = d.ht.vals;
  for (const k in o) if (Object.hasOwn(o, k)) vals.set(encodeUTF8(k), fromJS(o[k]));
  return d;
}

/**
 * Convert a Starlark value to JS. None -> null, ints -> number (BigInt beyond
 * 2^53), floats -> number, str -> string, bytes -> Uint8Array, list/tuple/set
 * -> array, dict and struct -> plain object (string keys; other keys are
 * rendered with str()). Functions and other values without a data meaning
 * raise a StarlarkError of kind 'convert'.
 */
export function toJS(v: Value): unknown {
  if (v === null) return null;
  switch (typeof v) {
    case 'boolean': case 'number': case 'bigint': return v;
    case 'string': return decodeUTF8(v);
  }
  if (v instanceof Float) return v.v;
  if (v instanceof List || v instanceof Tuple) {
    const e = v.elems;
    const out = new Array<unknown>(e.length);
    for (let i = 0; i < e.length; i++) out[i] = toJS(e[i]!);
    return out;
  }
  if (v instanceof Dict) {
    const o: Record<string, unknown> = {};
    const ht = v.ht;
    if (ht.keys === null) {
      // every key is its own hash key: a string, int, bool or None
      for (const [k, x] of ht.vals) o[typeof k === 'string' ? decodeUTF8(k) : String(k)] = toJS(x);
      return o;
    }
    for (const [hk, x] of ht.vals) {
      const k = ht.keyOf(hk);
      o[typeof k === 'string' ? decodeUTF8(k) : decodeUTF8(typeof k === 'object' && k !== null ? repr(k) : String(k))] = toJS(x);
    }
    return o;
  }
  if (v instanceof SSet) return v.ht.keyList().map(toJS);
  if (v instanceof Bytes) return new Uint8Array(Buffer.from(v.s, 'latin1'));
  if (v instanceof Struct) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v.fields) o[k] = toJS(x);
    return o;
  }
  if (v instanceof StringIterable) {
    const out: unknown[] = [];
    forEach(v, (x) => { out.push(toJS(x)); });
    return out;
  }
  throw new StarlarkError('convert', `cannot convert ${typeName(v)} to a JS value`);
}

/**
 * A dict whose string keys are case-insensitive for [], .get, `in`, pop and
 * assignment (HTTP headers). Keys keep the spelling they were first set with.
 * Multi-valued headers become lists of strings.
 */
export function headersFromJS(h: Record<string, string | string[] | undefined> | Map<string, string | string[]> | [string, string][]): Dict {
  const d = new HeadersDict();
  const entries: Iterable<[string, string | string[] | undefined]> = h instanceof Map || Array.isArray(h)
    ? (h as Iterable<[string, string]>)
    : Object.entries(h as Record<string, string | string[] | undefined>);
  for (const [k, x] of entries) {
    if (x === undefined) continue;
    dictSet(d, encodeUTF8(k), Array.isArray(x) ? new List(x.map((s) => encodeUTF8(s))) : encodeUTF8(x));
  }
  return d;
}

/** Build a struct value (read-only attributes), e.g. for a `request` object. */
export function structFromJS(fields: Record<string, unknown>): Struct {
  return new Struct(new Map(Object.entries(fields).map(([k, x]) => [k, fromJS(x)])));
}
