// Core operations on values: hashing, equality and ordering, binary and unary
// operators, indexing, slicing, iteration and len. Messages mirror starlark-go.

import * as I from './int.js';
import { chargeAlloc, checkElems, checkStrLen } from './limits.js';
import { chargeSteps } from '../budget.js';
import { repr as reprOf, str, typeName } from './repr.js';
import { interpolate } from '../format.js';
import {
  Builtin, Bytes, Dict, EvalErr, Float, Func, HashTable, List, RangeValue, SSet, Struct, Tuple,
  type HashKey, type SValue, type Value,
} from './types.js';

export { typeName };

export function truth(v: Value): boolean {
  if (v === null || v === false) return false;
  if (v === true) return true;
  switch (typeof v) {
    case 'number': return v !== 0;
    case 'string': return v.length > 0;
    case 'bigint': return true; // never zero (normalised)
  }
  return (v as SValue).truth();
}

// ---------------------------------------------------------------- hashing

const ids = new WeakMap<object, number>();
let nextId = 1;
function identity(o: object): number {
  let id = ids.get(o);
  if (id === undefined) { id = nextId++; ids.set(o, id); }
  return id;
}

function unhashable(v: Value): never {
  const t = typeName(v);
  if (t === 'list' || t === 'dict' || t === 'set') throw new EvalErr(`unhashable type: ${t}`);
  throw new EvalErr(`unhashable: ${t}`);
}

/**
 * Map a hashable value to a JS primitive such that two values are equal in
 * Starlark iff their keys are equal (SameValueZero). Strings, ints, bools and
 * None map to themselves; binary strings never contain chars > 0xFF, so keys
 * of composite values start with such a char and cannot collide with them.
 */
export function hashKey(v: Value): HashKey {
  switch (typeof v) {
    case 'string': case 'number': case 'bigint': case 'boolean': return v;
  }
  if (v === null) return null;
  if (v instanceof Float) {
    const f = v.v;
    if (Number.isInteger(f)) return I.floatToInt(f);
    return f;
  }
  if (v instanceof Tuple) return '\u0100' + tupleKey(v);
  if (v instanceof Bytes) return '\u0102' + v.s;
  if (v instanceof Func || v instanceof Builtin) return '\u0101' + identity(v);
  if (v instanceof Struct) {
    let s = '\u0103';
    for (const k of [...v.fields.keys()].sort()) s += k.length + ':' + k + '=' + elemKey(v.fields.get(k)!);
    return s;
  }
  if ((v as { hashable?: boolean }).hashable === true) return '\u0105' + identity(v);
  return unhashable(v);
}

function elemKey(v: Value): string {
  const k = hashKey(v);
  switch (typeof k) {
    case 'string': return 's' + k.length + ':' + k;
    case 'number': return (Number.isInteger(k) ? 'i' : 'f') + k + ';';
    case 'bigint': return 'i' + k + ';';
    case 'boolean': return k ? 'T' : 'F';
  }
  return 'N';
}

function tupleKey(t: Tuple): string {
  let s = '(';
  for (const e of t.elems) s += elemKey(e);
  return s + ')';
}

// ---------------------------------------------------------------- hash tables

export function htKey(d: Dict, k: Value): HashKey {
  if (typeof k === 'string') return d.ci ? k.toLowerCase() : k;
  return hashKey(k);
}

export function dictGet(d: Dict, k: Value): Value | undefined {
  const hk = typeof k === 'string' && !d.ci ? k : htKey(d, k);
  return d.ht.vals.get(hk);
}

export function dictSet(d: Dict, k: Value, v: Value): void {
  const ht = d.ht;
  if (ht.frozen || ht.itercount > 0) ht.checkMutable('insert into');
  const hk = typeof k === 'string' && !d.ci ? k : htKey(d, k);
  if (hk !== k && !ht.vals.has(hk)) {
    if (ht.keys === null) ht.keys = new Map();
    ht.keys.set(hk, k);
  }
  if (ht.vals.size >= 1024 && !ht.vals.has(hk)) checkElems(ht.vals.size + 1);
  ht.vals.set(hk, v);
}

export function dictDelete(d: Dict, k: Value): Value | undefined {
  const ht = d.ht;
  ht.checkMutable('delete from');
  const hk = htKey(d, k);
  const v = ht.vals.get(hk);
  if (v !== undefined) {
    ht.vals.delete(hk);
    ht.keys?.delete(hk);
  }
  return v;
}

export function setAdd(s: SSet, k: Value): void {
  const ht = s.ht;
  ht.checkMutable('insert into');
  const hk = hashKey(k);
  if (!ht.vals.has(hk)) {
    if (hk !== k) {
      if (ht.keys === null) ht.keys = new Map();
      ht.keys.set(hk, k);
    }
    if (ht.vals.size >= 1024) checkElems(ht.vals.size + 1);
    ht.vals.set(hk, k);
  }
}

export function setHas(s: SSet, k: Value): boolean {
  return s.ht.vals.has(hashKey(k));
}

export function newSet(elems: Iterable<Value>): SSet {
  const s = new SSet();
  for (const e of elems) setAdd(s, e);
  return s;
}

export function copyHT(src: HashTable, dst: HashTable): void {
  for (const [hk, v] of src.vals) dst.vals.set(hk, v);
  if (src.keys !== null) {
    if (dst.keys === null) dst.keys = new Map();
    for (const [hk, k] of src.keys) dst.keys.set(hk, k);
  }
}

// ---------------------------------------------------------------- equality and ordering

const COMPARE_LIMIT = 10;

export type CmpOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

export function equals(x: Value, y: Value): boolean {
  if (typeof x === 'string' || typeof x === 'number') return x === y || (y instanceof Float && typeof x === 'number' && x === y.v);
  return compareDepth('==', x, y, COMPARE_LIMIT);
}

export function compare(op: CmpOp, x: Value, y: Value): boolean {
  return compareDepth(op, x, y, COMPARE_LIMIT);
}

function threeway(op: CmpOp, c: number): boolean {
  switch (op) {
    case '==': return c === 0;
    case '!=': return c !== 0;
    case '<': return c < 0;
    case '<=': return c <= 0;
    case '>': return c > 0;
    case '>=': return c >= 0;
  }
}

function floatCmp(x: number, y: number): number {
  if (x > y) return 1;
  if (x < y) return -1;
  if (x === y) return 0;
  if (x === x) return -1; // y is NaN
  if (y === y) return 1; // x is NaN
  return 0;
}

/** Exact comparison of an int with a float. */
function intFloatCmp(x: I.Int, f: number): number {
  if (f !== f) return -1;
  if (f === Infinity) return -1;
  if (f === -Infinity) return 1;
  if (typeof x === 'number') return floatCmp(x, f);
  // x is big (|x| > 2^53): compare against the integral part, then the fraction
  const t = Math.trunc(f);
  const bt = BigInt(t);
  if (x < bt) return -1;
  if (x > bt) return 1;
  return t === f ? 0 : f > t ? -1 : 1;
}

function sameTypeName(x: Value, y: Value): boolean {
  return typeName(x) === typeName(y);
}

export function compareDepth(op: CmpOp, x: Value, y: Value, depth: number): boolean {
  if (depth < 1) throw new EvalErr('comparison exceeded maximum recursion depth');
  const tx = typeof x, ty = typeof y;
  if ((tx === 'number' || tx === 'bigint') && (ty === 'number' || ty === 'bigint')) return threeway(op, I.cmpInt(x as I.Int, y as I.Int));
  if (tx === 'string' && ty === 'string') return threeway(op, x! < y! ? -1 : x! > y! ? 1 : 0);
  if (x instanceof Float) {
    if (y instanceof Float) return threeway(op, floatCmp(x.v, y.v));
    if (ty === 'number' || ty === 'bigint') return threeway(op, -intFloatCmp(y as I.Int, x.v));
  } else if (y instanceof Float && (tx === 'number' || tx === 'bigint')) {
    return threeway(op, intFloatCmp(x as I.Int, y.v));
  }
  if (sameTypeName(x, y)) {
    if (tx === 'boolean') return threeway(op, (x ? 1 : 0) - (y ? 1 : 0));
    if (x instanceof List) return sliceCompare(op, x.elems, (y as List).elems, depth);
    if (x instanceof Tuple) return sliceCompare(op, x.elems, (y as Tuple).elems, depth);
    if (x instanceof Bytes) { const a = x.s, b = (y as Bytes).s; return threeway(op, a < b ? -1 : a > b ? 1 : 0); }
    if (x instanceof Dict) {
      if (op === '==' || op === '!=') return dictsEqual(x, y as Dict, depth) === (op === '==');
    } else if (x instanceof SSet) {
      return setCompare(op, x, y as SSet);
    } else if (x instanceof Struct) {
      if (op === '==' || op === '!=') return structsEqual(x, y as Struct, depth) === (op === '==');
    } else if (x instanceof RangeValue) {
      if (op === '==' || op === '!=') {
        const b = y as RangeValue;
        const eq = x.len === b.len && (x.len === 0 || (x.start === b.start && (x.len === 1 || x.step === b.step)));
        return eq === (op === '==');
      }
    } else if (op === '==') return x === y;
    else if (op === '!=') return x !== y;
    throw new EvalErr(`${typeName(x)} ${op} ${typeName(y)} not implemented`);
  }
  if (op === '==') return false;
  if (op === '!=') return true;
  throw new EvalErr(`${typeName(x)} ${op} ${typeName(y)} not implemented`);
}

function sliceCompare(op: CmpOp, x: Value[], y: Value[], depth: number): boolean {
  if (x.length !== y.length && (op === '==' || op === '!=')) return op === '!=';
  for (let i = 0; i < x.length && i < y.length; i++) {
    if (!compareDepth('==', x[i]!, y[i]!, depth - 1)) {
      if (op === '==') return false;
      if (op === '!=') return true;
      return compareDepth(op, x[i]!, y[i]!, depth - 1);
    }
  }
  return threeway(op, x.length - y.length);
}

function dictsEqual(x: Dict, y: Dict, depth: number): boolean {
  if (x.ht.size !== y.ht.size) return false;
  for (const [hk, xv] of x.ht.vals) {
    const yv = dictGet(y, x.ht.keyOf(hk));
    if (yv === undefined || !compareDepth('==', xv, yv, depth - 1)) return false;
  }
  return true;
}

function structsEqual(x: Struct, y: Struct, depth: number): boolean {
  if (x.fields.size !== y.fields.size || !compareDepth('==', x.ctor, y.ctor, depth - 1)) return false;
  for (const [k, v] of x.fields) {
    const w = y.fields.get(k);
    if (w === undefined || !compareDepth('==', v, w, depth - 1)) return false;
  }
  return true;
}

function isSubset(x: SSet, y: SSet): boolean {
  for (const hk of x.ht.vals.keys()) if (!y.ht.vals.has(hk)) return false;
  return true;
}

function setCompare(op: CmpOp, x: SSet, y: SSet): boolean {
  const nx = x.ht.size, ny = y.ht.size;
  switch (op) {
    case '==': return nx === ny && isSubset(x, y);
    case '!=': return !(nx === ny && isSubset(x, y));
    case '>=': return nx >= ny && isSubset(y, x);
    case '<=': return nx <= ny && isSubset(x, y);
    case '>': return nx > ny && isSubset(y, x);
    case '<': return nx < ny && isSubset(x, y);
  }
}

// ---------------------------------------------------------------- iteration and length

/** Host-defined indexable values (e.g. "abc".elems()) implement this. */
export interface Indexable { readonly len: number; index(i: number): Value }
function isIndexable(x: Value): x is Value & Indexable {
  return x !== null && typeof x === 'object' && typeof (x as unknown as Indexable).index === 'function' && (x as unknown as Indexable).len >= 0;
}

/** Length, or -1 if the value has no length. */
export function length(v: Value): number {
  if (typeof v === 'string') return v.length;
  if (v instanceof List || v instanceof Tuple) return v.elems.length;
  if (v instanceof Dict || v instanceof SSet) return v.ht.size;
  if (v instanceof Bytes) return v.s.length;
  if (v instanceof RangeValue) return v.len;
  if (isIndexable(v)) return v.len;
  return -1;
}

export function isIterable(v: Value): boolean {
  return v instanceof List || v instanceof Tuple || v instanceof Dict || v instanceof SSet || v instanceof RangeValue
    || (v !== null && typeof v === 'object' && typeof (v as unknown as { iterate?: unknown }).iterate === 'function');
}

/** Host-defined iterables implement this (e.g. test helpers). */
export interface CustomIterable { iterate(): Iterator<Value> }

/**
 * Iterate over v, calling f for each element. Lists, dicts and sets are
 * protected against mutation during the loop. Returning true from f stops.
 */
export function forEach(v: Value, f: (x: Value) => boolean | void): void {
  if (v instanceof List) {
    v.itercount++;
    try {
      const e = v.elems;
      for (let i = 0; i < e.length; i++) if (f(e[i]!) === true) return;
    } finally { v.itercount--; }
    return;
  }
  if (v instanceof Tuple) {
    for (const x of v.elems) if (f(x) === true) return;
    return;
  }
  if (v instanceof Dict || v instanceof SSet) {
    const ht = v.ht;
    ht.itercount++;
    try {
      if (ht.keys === null) { for (const k of ht.vals.keys()) if (f(k) === true) return; }
      else for (const k of ht.vals.keys()) if (f(ht.keyOf(k)) === true) return;
    } finally { ht.itercount--; }
    return;
  }
  if (v instanceof RangeValue) {
    for (let i = 0; i < v.len; i++) if (f(v.start + i * v.step) === true) return;
    return;
  }
  if (v !== null && typeof v === 'object' && typeof (v as unknown as CustomIterable).iterate === 'function') {
    const it = (v as unknown as CustomIterable).iterate();
    for (let r = it.next(); !r.done; r = it.next()) if (f(r.value) === true) return;
    return;
  }
  throw new EvalErr(`${typeName(v)} value is not iterable`);
}

/** A snapshot array of the elements of an iterable. */
export function toArray(v: Value): Value[] {
  if (v instanceof RangeValue) checkElems(v.len);
  const n = length(v);
  if (n > 64) chargeSteps(n);
  if (v instanceof List || v instanceof Tuple) return v.elems.slice();
  if ((v instanceof Dict || v instanceof SSet)) return v.ht.keyList();
  const out: Value[] = [];
  forEach(v, (x) => {
    // host iterables may be long or endless
    if ((out.length & 0xffff) === 0xffff) checkElems(out.length + 1);
    out.push(x);
  });
  return out;
}

// ---------------------------------------------------------------- indexing and slicing

export function asInt32(v: Value): number {
  if (typeof v === 'number') {
    if (v > 2147483647 || v < -2147483648) throw new EvalErr(`${v} out of range`);
    return v;
  }
  if (typeof v === 'bigint') throw new EvalErr(`${v} out of range`);
  throw new EvalErr(`got ${typeName(v)}, want int`);
}

function outOfRange(i: number, n: number, x: Value): EvalErr {
  if (n === 0) return new EvalErr(`index ${i} out of range: empty ${typeName(x)}`);
  return new EvalErr(`${typeName(x)} index ${i} out of range [${-n}:${n - 1}]`);
}

export function getIndex(x: Value, y: Value): Value {
  if (x instanceof Dict) {
    const v = dictGet(x, y);
    if (v === undefined) throw new EvalErr(`key ${reprOf(y)} not in dict`);
    return v;
  }
  let n: number;
  if (typeof x === 'string') n = x.length;
  else if (x instanceof List || x instanceof Tuple) n = x.elems.length;
  else if (x instanceof Bytes) n = x.s.length;
  else if (x instanceof RangeValue) n = x.len;
  else if (isIndexable(x)) n = x.len;
  else throw new EvalErr(`unhandled index operation ${typeName(x)}[${typeName(y)}]`);
  let i: number;
  try { i = asInt32(y); } catch (e) { throw new EvalErr(`${typeName(x)} index: ${(e as EvalErr).msg}`); }
  const orig = i;
  if (i < 0) i += n;
  if (i < 0 || i >= n) throw outOfRange(orig, n, x);
  if (typeof x === 'string') return x[i]!;
  if (x instanceof Bytes) return new Bytes(x.s[i]!);
  if (x instanceof RangeValue) return x.at(i);
  if (isIndexable(x)) return x.index(i);
  return (x as List).elems[i]!;
}

export function setIndex(x: Value, y: Value, z: Value): void {
  if (x instanceof Dict) { dictSet(x, y, z); return; }
  if (x instanceof List) {
    x.checkMutable('assign to element of');
    const n = x.elems.length;
    let i = asInt32(y);
    const orig = i;
    if (i < 0) i += n;
    if (i < 0 || i >= n) throw outOfRange(orig, n, x);
    x.elems[i] = z;
    return;
  }
  throw new EvalErr(`${typeName(x)} value does not support item assignment`);
}

function asIndex(v: Value, len: number, dflt: number): number {
  if (v === null) return dflt;
  let r = asInt32(v);
  if (r < 0) r += len;
  return r;
}

export function slice(x: Value, lo: Value, hi: Value, stepv: Value): Value {
  let n: number;
  if (typeof x === 'string') n = x.length;
  else if (x instanceof List || x instanceof Tuple) n = x.elems.length;
  else if (x instanceof Bytes) n = x.s.length;
  else if (x instanceof RangeValue) n = x.len;
  else throw new EvalErr(`invalid slice operand ${typeName(x)}`);
  let step = 1;
  if (stepv !== null) {
    try { step = asInt32(stepv); } catch (e) { throw new EvalErr(`invalid slice step: ${(e as EvalErr).msg}`); }
    if (step === 0) throw new EvalErr('zero is not a valid slice step');
  }
  let start: number, end: number;
  if (step > 0) {
    try { start = asIndex(lo, n, 0); } catch (e) { throw new EvalErr(`invalid start index: ${(e as EvalErr).msg}`); }
    start = start < 0 ? 0 : start > n ? n : start;
    try { end = asIndex(hi, n, n); } catch (e) { throw new EvalErr(`invalid end index: ${(e as EvalErr).msg}`); }
    end = end < 0 ? 0 : end > n ? n : end;
    if (end < start) end = start;
  } else {
    try { start = asIndex(lo, n, n - 1); } catch (e) { throw new EvalErr(`invalid start index: ${(e as EvalErr).msg}`); }
    if (start >= n) start = n - 1;
    try { end = asIndex(hi, n, -1); } catch (e) { throw new EvalErr(`invalid end index: ${(e as EvalErr).msg}`); }
    if (end < -1) end = -1;
    if (start < end) start = end;
  }
  if (typeof x === 'string' || x instanceof Bytes) {
    const s = typeof x === 'string' ? x : x.s;
    let r: string;
    if (step === 1) r = s.slice(start, end);
    else {
      const parts: string[] = [];
      if (step > 0) for (let i = start; i < end; i += step) parts.push(s[i]!);
      else for (let i = start; i > end; i += step) parts.push(s[i]!);
      r = parts.join('');
    }
    return typeof x === 'string' ? r : new Bytes(r);
  }
  if (x instanceof RangeValue) {
    const nstart = x.start + start * x.step, nstop = x.start + end * x.step, nstep = x.step * step;
    const len = step > 0 ? Math.max(0, Math.ceil((end - start) / step)) : Math.max(0, Math.ceil((start - end) / -step));
    return new RangeValue(nstart, nstop, nstep, len);
  }
  const e = (x as List | Tuple).elems;
  let out: Value[];
  if (step === 1) out = e.slice(start, end);
  else {
    out = [];
    if (step > 0) for (let i = start; i < end; i += step) out.push(e[i]!);
    else for (let i = start; i > end; i += step) out.push(e[i]!);
  }
  return x instanceof List ? new List(out) : new Tuple(out);
}

// ---------------------------------------------------------------- operators

export type BinOp = '+' | '-' | '*' | '/' | '//' | '%' | '&' | '|' | '^' | '<<' | '>>' | 'in' | 'not in';

function finiteFloat(x: I.Int): number {
  const f = I.intToFloat(x);
  if (!Number.isFinite(f)) throw new EvalErr('int too large to convert to float');
  return f;
}

function isIntV(v: Value): v is number | bigint { return typeof v === 'number' || typeof v === 'bigint'; }

/** Numeric operands as floats, or null if not both numbers (at least one float). */
function floats(x: Value, y: Value): [number, number] | null {
  if (x instanceof Float) {
    if (y instanceof Float) return [x.v, y.v];
    if (isIntV(y)) return [x.v, finiteFloat(y)];
  } else if (y instanceof Float && isIntV(x)) return [finiteFloat(x), y.v];
  return null;
}

function floatMod(x: number, y: number): number {
  let z = x % y;
  if ((x < 0) !== (y < 0) && z !== 0) z += y;
  return z;
}

function repeat(n: Value, make: (k: number) => Value, unit: number): Value {
  let i: number;
  try { i = asInt32(n); } catch { throw new EvalErr(`repeat count ${reprOf(n)} too large`); }
  if (i < 1 || unit === 0) return make(0);
  if (unit * i >= 1 << 30) throw new EvalErr(`excessive repeat (${unit} * ${i} elements)`);
  return make(i);
}

function strRepeat(s: string, n: Value): string {
  return repeat(n, (k) => { if (k > 0) { checkStrLen(s.length * k); chargeAlloc(s.length * k); chargeSteps((s.length * k) >> 4); } return k > 0 ? s.repeat(k) : ''; }, s.length) as string;
}

function elemsRepeat(e: Value[], n: Value): Value[] {
  let out: Value[] = [];
  repeat(n, (k) => {
    if (k > 0) { checkElems(e.length * k); chargeAlloc(8 * e.length * k); chargeSteps(e.length * k); }
    out = new Array(e.length * k);
    for (let j = 0; j < k; j++) for (let i = 0; i < e.length; i++) out[j * e.length + i] = e[i]!;
    return null;
  }, e.length);
  return out;
}

/** Membership test `x in y`. */
export function contains(y: Value, x: Value): boolean {
  if (typeof y === 'string') {
    if (typeof x !== 'string') throw new EvalErr(`'in <string>' requires string as left operand, not ${typeName(x)}`);
    return y.includes(x);
  }
  if (y instanceof Dict) { try { return dictGet(y, x) !== undefined; } catch { return false; } }
  if (y instanceof List || y instanceof Tuple) {
    const e = y.elems;
    for (let i = 0; i < e.length; i++) if (equals(e[i]!, x)) return true;
    return false;
  }
  if (y instanceof SSet) return setHas(y, x);
  if (y instanceof RangeValue) {
    let v: number;
    if (typeof x === 'number') v = x;
    else if (x instanceof Float && Number.isInteger(x.v)) v = x.v;
    else if (x instanceof Float || typeof x === 'bigint') return false;
    else throw new EvalErr(`'in <range>' requires integer as left operand, not ${typeName(x)}`);
    if (y.len === 0) return false;
    const d = v - y.start;
    if (d % y.step !== 0) return false;
    const i = d / y.step;
    return i >= 0 && i < y.len;
  }
  if (y instanceof Bytes) {
    if (x instanceof Bytes) return y.s.includes(x.s);
    if (typeof x === 'number') {
      if (x < 0 || x > 255) throw new EvalErr(`int in bytes: ${x} out of range`);
      return y.s.includes(String.fromCharCode(x));
    }
    throw new EvalErr(`'in bytes' requires bytes or int as left operand, not ${typeName(x)}`);
  }
  throw new EvalErr(`unknown binary op: ${typeName(x)} in ${typeName(y)}`);
}

export function binary(op: BinOp, x: Value, y: Value): Value {
  switch (op) {
    case '+':
      if (typeof x === 'string') {
        if (typeof y === 'string') {
          const n = x.length + y.length;
          if (n > 4096) { checkStrLen(n); chargeAlloc(y.length); }
          return x + y;
        }
        break;
      }
      if (isIntV(x) && isIntV(y)) return I.add(x, y);
      { const f = floats(x, y); if (f) return new Float(f[0] + f[1]); }
      if (x instanceof List && y instanceof List) { checkElems(x.elems.length + y.elems.length); chargeAlloc(8 * (x.elems.length + y.elems.length)); chargeSteps(x.elems.length + y.elems.length); return new List(x.elems.concat(y.elems)); }
      if (x instanceof Tuple && y instanceof Tuple) { checkElems(x.elems.length + y.elems.length); chargeAlloc(8 * (x.elems.length + y.elems.length)); return new Tuple(x.elems.concat(y.elems)); }
      break;
    case '-':
      if (isIntV(x) && isIntV(y)) return I.sub(x, y);
      { const f = floats(x, y); if (f) return new Float(f[0] - f[1]); }
      if (x instanceof SSet && y instanceof SSet) {
        const r = new SSet();
        for (const [hk, k] of x.ht.vals) if (!y.ht.vals.has(hk)) setAdd(r, k);
        return r;
      }
      break;
    case '*':
      if (isIntV(x)) {
        if (isIntV(y)) return I.mul(x, y);
        if (y instanceof Float) return new Float(finiteFloat(x) * y.v);
        if (typeof y === 'string') return strRepeat(y, x);
        if (y instanceof Bytes) return new Bytes(strRepeat(y.s, x));
        if (y instanceof List) return new List(elemsRepeat(y.elems, x));
        if (y instanceof Tuple) return new Tuple(elemsRepeat(y.elems, x));
        break;
      }
      if (x instanceof Float) { const f = floats(x, y); if (f) return new Float(f[0] * f[1]); break; }
      if (isIntV(y)) {
        if (typeof x === 'string') return strRepeat(x, y);
        if (x instanceof Bytes) return new Bytes(strRepeat(x.s, y));
        if (x instanceof List) return new List(elemsRepeat(x.elems, y));
        if (x instanceof Tuple) return new Tuple(elemsRepeat(x.elems, y));
      }
      break;
    case '/': {
      let f: [number, number] | null;
      if (isIntV(x) && isIntV(y)) f = [finiteFloat(x), finiteFloat(y)];
      else f = floats(x, y);
      if (f) {
        if (f[1] === 0) throw new EvalErr('floating-point division by zero');
        return new Float(f[0] / f[1]);
      }
      break;
    }
    case '//':
      if (isIntV(x) && isIntV(y)) {
        if (y === 0) throw new EvalErr('floored division by zero');
        return I.floorDiv(x, y);
      }
      { const f = floats(x, y); if (f) { if (f[1] === 0) throw new EvalErr('floored division by zero'); return new Float(Math.floor(f[0] / f[1])); } }
      break;
    case '%':
      if (isIntV(x) && isIntV(y)) {
        if (y === 0) throw new EvalErr('integer modulo by zero');
        return I.mod(x, y);
      }
      if (typeof x === 'string') return interpolate(x, y);
      { const f = floats(x, y); if (f) { if (f[1] === 0) throw new EvalErr('floating-point modulo by zero'); return new Float(floatMod(f[0], f[1])); } }
      break;
    case 'in': return contains(y, x);
    case 'not in': return !contains(y, x);
    case '|':
      if (isIntV(x) && isIntV(y)) return I.bitOr(x, y);
      if (x instanceof Dict && y instanceof Dict) {
        const r = new Dict();
        copyHT(x.ht, r.ht);
        for (const [hk, v] of y.ht.vals) dictSet(r, y.ht.keyOf(hk), v);
        return r;
      }
      if (x instanceof SSet && y instanceof SSet) {
        const r = new SSet();
        copyHT(x.ht, r.ht);
        for (const k of y.ht.keyList()) setAdd(r, k);
        return r;
      }
      break;
    case '&':
      if (isIntV(x) && isIntV(y)) return I.bitAnd(x, y);
      if (x instanceof SSet && y instanceof SSet) {
        const r = new SSet();
        for (const [hk, k] of x.ht.vals) if (y.ht.vals.has(hk)) setAdd(r, k);
        return r;
      }
      break;
    case '^':
      if (isIntV(x) && isIntV(y)) return I.bitXor(x, y);
      if (x instanceof SSet && y instanceof SSet) {
        const r = new SSet();
        for (const [hk, k] of x.ht.vals) if (!y.ht.vals.has(hk)) setAdd(r, k);
        for (const [hk, k] of y.ht.vals) if (!x.ht.vals.has(hk)) setAdd(r, k);
        return r;
      }
      break;
    case '<<': case '>>':
      if (isIntV(x)) {
        const n = asInt32(y);
        if (n < 0) throw new EvalErr(`negative shift count: ${n}`);
        if (op === '<<') {
          if (n >= 512) throw new EvalErr(`shift count too large: ${n}`);
          return I.lsh(x, n);
        }
        return I.rsh(x, n);
      }
      break;
  }
  if (op === '+' && x instanceof Struct && y instanceof Struct) {
    if (!equals(x.ctor, y.ctor)) throw new EvalErr(`cannot add structs of different constructors: ${str(x.ctor)} + ${str(y.ctor)}`);
    const fields = new Map(x.fields);
    for (const [k, v] of y.fields) fields.set(k, v);
    return new Struct(new Map([...fields].sort((a, b) => (a[0] < b[0] ? -1 : 1))), x.ctor);
  }
  if (x !== null && typeof x === 'object' && typeof (x as unknown as HasBinary).binary === 'function') {
    const r = (x as unknown as HasBinary).binary(op, y, 'left');
    if (r !== undefined) return r;
  }
  if (y !== null && typeof y === 'object' && typeof (y as unknown as HasBinary).binary === 'function') {
    const r = (y as unknown as HasBinary).binary(op, x, 'right');
    if (r !== undefined) return r;
  }
  throw new EvalErr(`unknown binary op: ${typeName(x)} ${op} ${typeName(y)}`);
}

/** Host types may implement binary operators (like starlark.HasBinary). */
export interface HasBinary { binary(op: BinOp, y: Value, side: 'left' | 'right'): Value | undefined }

export function unary(op: '-' | '+' | '~' | 'not', x: Value): Value {
  if (op === 'not') return !truth(x);
  if (isIntV(x)) {
    if (op === '-') return I.neg(x);
    if (op === '+') return x;
    return I.bitNot(x);
  }
  if (x instanceof Float) {
    if (op === '-') return new Float(-x.v);
    if (op === '+') return x;
  }
  throw new EvalErr(`unknown unary op: ${op} ${typeName(x)}`);
}

