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
import { Bytes, Dict, EvalErr, Float, HeadersDict, List, SSet, SValue, Struct, Tuple, type Value } from './values/types.js';
import { HostStruct, LazyStruct } from './values/host-struct.js';
import { StarlarkError } from './program.js';
import { StringIterable } from './methods/str.js';

// The interpreter's public surface: what the svc step, the CLI and the tests use. Everything else of
// the folder is private (knip holds this list to what is imported).
export {
  compileModule,
  callFunction,
  compileError,
  StarlarkModule,
  StarlarkError,
  type CompileOptions,
  type InitOptions,
  type StarlarkDiagnostic,
} from './program.js';
export { DEFAULT_MAX_STEPS, DEFAULT_TIMEOUT_MS, type RunOptions, type Thread } from './thread.js';
export { DEFAULT_SIZE_LIMITS, type SizeLimits } from './values/limits.js';
export type { FileOptions } from './resolve.js';
export type { LinePlace } from './syntax/scanner.js';
export type { Reads } from './reads.js';
export { Builtin, Dict, Float, List, Module, Struct, type Value } from './values/types.js';
export { repr } from './values/repr.js';
export { decodeJSON } from './json.js';
export { encodeUTF8 } from './values/utf8.js';

/**
 * How much a conversion (fromJS or toJS) may walk: nesting depth and nodes
 * visited (containers, elements and 1 per 64 string bytes). A value shared
 * many times is converted, and counted, once per reference, so a few lines of
 * Starlark (`a = [a, a]` forty times) cannot make toJS build 2^40 nodes.
 */
export interface ConvertLimits {
  maxDepth: number;
  maxNodes: number;
  /** toJS: refuse NaN and ±Infinity (JSON has no such numbers) instead of returning them */
  finiteOnly?: boolean;
  /**
   * toJS: bound on the text the result holds, as its serialisation will
   * write it: the bytes of every string, bytes value and dict key plus one per
   * node, a shared value counted once per reference (a list of sixteen
   * references to one 16 MiB string is 256 MiB of text). Beyond it a
   * StarlarkError of kind 'size'. Default: unbounded (maxNodes still applies).
   */
  maxBytes?: number;
  /** fromJS: the dicts made read their string keys as fields too (Dict.keysAsFields) */
  keysAsFields?: boolean;
}
export const DEFAULT_CONVERT_LIMITS: ConvertLimits = { maxDepth: 1000, maxNodes: 16_000_000 };

/**
 * One conversion (fromJS or toJS): its limits, and the depth and nodes
 * visited so far. A fresh one per call, so that nested or interleaved
 * conversions (a host function converting inside a run) keep separate counts.
 */
class Converter {
  depth = 0;
  nodes = 0;
  /** toJS: text written so far (see ConvertLimits.maxBytes) */
  bytes = 0;
  readonly maxBytes: number;
  constructor(readonly limits: ConvertLimits) {
    this.maxBytes = limits.maxBytes ?? Infinity;
  }

  /** A new dict, marked as the conversion asks. */
  dict(): Dict {
    const d = new Dict();
    if (this.limits.keysAsFields === true) d.keysAsFields = true;
    return d;
  }

  /** Count n more bytes of the result's text (toJS). */
  text(n: number): void {
    this.bytes += n;
    if (this.bytes > this.maxBytes) {
      throw new StarlarkError('size', `value too large to convert: more than ${this.maxBytes} bytes of text (a shared value counts once per reference)`);
    }
  }

  /**
   * toJS of a string of at most 64 bytes inside a container (counted as one of its nodes already):
   * what `toJS` does for it, without the call's dispatch on the value's type.
   */
  shortString(s: string): string {
    this.text(s.length + 1);
    return decodeUTF8(s);
  }

  /** Enter a container of n nodes (the caller leaves it with depth--). */
  enter(n: number): void {
    this.nodes += n;
    if (this.nodes > this.limits.maxNodes) throw new StarlarkError('convert', `value too large to convert (more than ${this.limits.maxNodes} nodes)`);
    if (++this.depth > this.limits.maxDepth)
      throw new StarlarkError('convert', `value nested more than ${this.limits.maxDepth} levels deep (or cyclic) cannot be converted`);
  }

  fromJS(v: unknown): Value {
    if (v === null || v === undefined) return null;
    switch (typeof v) {
      case 'boolean':
        return v;
      case 'number':
        if (Number.isInteger(v)) return Number.isSafeInteger(v) ? v + 0 : I.norm(BigInt(v));
        return new Float(v);
      case 'bigint':
        return I.norm(v);
      case 'string':
        return encodeUTF8(v);
      case 'object':
        break;
      default:
        throw new StarlarkError('convert', `cannot convert JS ${typeof v} to a Starlark value`);
    }
    if (v instanceof SValue) return v;
    let out: Value;
    if (Array.isArray(v)) {
      this.enter(v.length + 1);
      const a = new Array<Value>(v.length);
      for (let i = 0; i < v.length; i++) {
        // Strings, the usual element, without the recursive call.
        const x = v[i];
        a[i] = typeof x === 'string' ? encodeUTF8(x) : this.fromJS(x);
      }
      out = new List(a);
    } else if (Object.getPrototypeOf(v) === Object.prototype || !(v instanceof Map || v instanceof Set || v instanceof Uint8Array || v instanceof Date)) {
      this.enter(1);
      out = this.objectToDict(v as Record<string, unknown>);
    } else if (v instanceof Uint8Array) {
      return new Bytes(Buffer.from(v).toString('latin1'));
    } else if (v instanceof Date) {
      return encodeUTF8(v.toISOString());
    } else if (v instanceof Map) {
      this.enter(v.size + 1);
      const d = this.dict();
      // outside a run: the conversion limits bound the size, not a thread's
      for (const [k, x] of v) dictSet(d, this.fromJS(k), this.fromJS(x), null);
      out = d;
    } else {
      this.enter((v as Set<unknown>).size + 1);
      const s = new SSet();
      for (const x of v as Set<unknown>) setAdd(s, this.fromJS(x), null);
      out = s;
    }
    this.depth--;
    return out;
  }

  objectToDict(o: Record<string, unknown>): Dict {
    // string keys map to themselves in the hash table (see HashTable)
    const d = this.dict();
    const vals = d.ht.vals;
    for (const k in o)
      if (Object.hasOwn(o, k)) {
        this.nodes++;
        const x = o[k];
        vals.set(encodeUTF8(k), typeof x === 'string' ? encodeUTF8(x) : this.fromJS(x));
      }
    return d;
  }

  toJS(v: Value): unknown {
    this.text(typeof v === 'string' ? v.length + 1 : v instanceof Bytes ? v.s.length + 1 : 1);
    if (v === null) return null;
    switch (typeof v) {
      case 'boolean':
      case 'number':
      case 'bigint':
        return v;
      case 'string':
        if (v.length > 64) {
          this.nodes += v.length >> 6;
          if (this.nodes > this.limits.maxNodes) this.enter(0);
        }
        return decodeUTF8(v);
    }
    if (v instanceof Float) {
      if (this.limits.finiteOnly === true && !Number.isFinite(v.v)) throw new StarlarkError('convert', `cannot convert float ${repr(v)} to JSON data`);
      return v.v;
    }
    let out: unknown;
    if (v instanceof List || v instanceof Tuple) {
      const e = v.elems;
      this.enter(e.length + 1);
      const a = new Array<unknown>(e.length);
      for (let i = 0; i < e.length; i++) {
        const x = e[i]!;
        a[i] = typeof x === 'string' && x.length <= 64 ? this.shortString(x) : this.toJS(x);
      }
      out = a;
    } else if (v instanceof Dict) {
      this.enter(v.ht.vals.size + 1);
      out = this.dictToObject(v);
    } else if (v instanceof SSet) {
      const keys = v.ht.keyList();
      this.enter(keys.length + 1);
      out = keys.map((k) => this.toJS(k));
    } else if (v instanceof Bytes) {
      return new Uint8Array(Buffer.from(v.s, 'latin1'));
    } else if (v instanceof Struct) {
      const o: Record<string, unknown> = {};
      this.enter(v.fields.size + 1);
      for (const [k, x] of v.fields) {
        this.text(k.length);
        setKey(o, k, this.toJS(x), true);
      }
      out = o;
    } else if (v instanceof StringIterable) {
      const a: unknown[] = [];
      this.enter(1);
      forEach(v, (x) => {
        this.nodes++;
        a.push(this.toJS(x));
      });
      if (this.nodes > this.limits.maxNodes) this.enter(0);
      out = a;
    } else {
      throw new StarlarkError('convert', `cannot convert ${typeName(v)} to a JS value`);
    }
    this.depth--;
    return out;
  }

  dictToObject(v: Dict): Record<string, unknown> {
    const o: Record<string, unknown> = {};
    const ht = v.ht;
    if (ht.keys === null) {
      // every key is its own hash key: a string, int, bool or None
      let mixed = false; // a non-string key may share its JS spelling with a string key
      for (const [k, x] of ht.vals) {
        if (typeof k === 'string') {
          this.text(k.length);
          const s = decodeUTF8(k);
          setKey(o, s, typeof x === 'string' && x.length <= 64 ? this.shortString(x) : this.toJS(x), s === k && !mixed);
        } else {
          mixed = true;
          const s = String(k);
          this.text(s.length);
          setKey(o, s, this.toJS(x), false);
        }
      }
    } else {
      for (const [hk, x] of ht.vals) {
        const k = ht.keyOf(hk);
        const s = typeof k === 'string' ? decodeUTF8(k) : decodeUTF8(typeof k === 'object' && k !== null ? repr(k) : String(k));
        this.text(s.length);
        setKey(o, s, this.toJS(x), false);
      }
    }
    return o;
  }
}

/**
 * Convert a JS value to a Starlark value. JSON-like data maps exactly:
 * null/undefined -> None, booleans, integral numbers -> int, other numbers ->
 * float, bigint -> int, strings -> str, arrays -> list, plain objects and Maps
 * -> dict (insertion order), Sets -> set, Uint8Array -> bytes. Starlark values
 * (e.g. a headers dict) pass through unchanged. Cyclic or too deeply nested
 * input is refused with a StarlarkError of kind 'convert' (see ConvertLimits).
 */
export function fromJS(v: unknown, limits: ConvertLimits = DEFAULT_CONVERT_LIMITS): Value {
  try {
    return new Converter(limits).fromJS(v);
  } catch (e) {
    throw convertError(e);
  }
}

/**
 * Convert a Starlark value to JS: None null, numbers (BigInt past 2^53), str string, bytes
 * Uint8Array, list/tuple/set array, dict and struct a plain object with own data properties
 * (`__proto__` included, never a prototype). Functions, keys clashing as JS text (1 and "1"), cyclic,
 * too deep or too large values (ConvertLimits) raise a StarlarkError of kind 'convert'.
 */
export function toJS(v: Value, limits: ConvertLimits = DEFAULT_CONVERT_LIMITS): unknown {
  try {
    return new Converter(limits).toJS(v);
  } catch (e) {
    throw convertError(e);
  }
}

/** A JS stack overflow while converting is a conversion error, like a too deep value. */
function convertError(e: unknown): unknown {
  return e instanceof RangeError ? new StarlarkError('convert', `value too deeply nested to convert (${e.message})`) : e;
}

function setKey(o: Record<string, unknown>, k: string, x: unknown, exact: boolean): void {
  if (!exact && Object.hasOwn(o, k)) throw new StarlarkError('convert', `cannot convert dict: two keys are both ${JSON.stringify(k)} in JS`);
  if (k === '__proto__') Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
  else o[k] = x;
}

/**
 * A dict whose string keys are case-insensitive for [], .get, `in`, pop and
 * assignment (HTTP headers). Keys keep the spelling they were first set with.
 * Multi-valued headers become lists of strings.
 */
export function headersFromJS(h: Record<string, string | string[] | undefined> | Map<string, string | string[]> | [string, string][]): Dict {
  const d = new HeadersDict();
  if (!(h instanceof Map) && !Array.isArray(h)) {
    // Node's request headers: own keys, already lower case (then the hash key is the key itself)
    const vals = d.ht.vals;
    for (const k in h) {
      const x = h[k];
      if (x === undefined || !Object.hasOwn(h, k)) continue;
      const key = encodeUTF8(k);
      const value = typeof x === 'string' ? encodeUTF8(x) : new List(x.map((s) => encodeUTF8(s)));
      if (key === key.toLowerCase() && !vals.has(key)) vals.set(key, value);
      else dictSet(d, key, value, null);
    }
    return d;
  }
  const entries: Iterable<[string, string | string[] | undefined]> =
    h instanceof Map || Array.isArray(h) ? (h as Iterable<[string, string]>) : Object.entries(h as Record<string, string | string[] | undefined>);
  for (const [k, x] of entries) {
    if (x === undefined) continue;
    dictSet(d, encodeUTF8(k), Array.isArray(x) ? new List(x.map((s) => encodeUTF8(s))) : encodeUTF8(x), null);
  }
  return d;
}

/** Build a struct value (read-only attributes), e.g. for a `request` object. */
export function structFromJS(fields: Record<string, unknown>): Struct {
  return new Struct(new Map(Object.entries(fields).map(([k, x]) => [k, fromJS(x)])));
}

/**
 * A struct-like value over Starlark values (names: JS text, as struct field names are): `x.name`
 * and `x["name"]`, `"name" in x`, dir(), hasattr/getattr and str() as a struct; immutable (its
 * values may be mutable).
 */
export function recordStruct(fields: Map<string, Value>): Struct {
  return new HostStruct(new Map(fields));
}

/**
 * The same over JS data, each field converted on its first read (by `convert`; default fromJS) and
 * kept: only what a script reads is converted, a script sees its own mutations of what it read,
 * and `source` is never written. A conversion that fails (too deep, a value with no Starlark
 * meaning) fails the read, as an error of kind 'convert' at the script's position.
 */
export function lazyStruct(source: Readonly<Record<string, unknown>>, convert: (value: unknown, name: string) => Value = (value) => fromJS(value)): Struct {
  return new LazyStruct(source, (value, name) => {
    try {
      return convert(value, name);
    } catch (e) {
      if (e instanceof StarlarkError) throw new EvalErr(`cannot convert .${name}: ${e.msg}`, e.kind);
      throw e;
    }
  });
}

/** The entries of a dict whose keys are all strings, keyed by JS text; null for any other value. */
export function stringKeyedEntries(v: Value): Map<string, Value> | null {
  if (!(v instanceof Dict)) return null;
  const out = new Map<string, Value>();
  for (const [hk, x] of v.ht.vals) {
    const k = v.ht.keyOf(hk);
    if (typeof k !== 'string') return null;
    out.set(decodeUTF8(k), x);
  }
  return out;
}
