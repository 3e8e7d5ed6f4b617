// Length, iteration (with mutation protection), indexing and slicing.

import { repr as reprOf, typeName } from './repr.js';
import type { Thread } from '../thread.js';
import { dictGet, dictSet } from './hash.js';
import { Bytes, Dict, EvalErr, exactInt, List, RangeValue, SSet, Struct, Tuple, type Value } from './types.js';
import { nearest } from '../spell.js';
import { decodeUTF8, encodeUTF8 } from './utf8.js';

// ---------------------------------------------------------------- iteration and length

/** Host-defined indexable values (e.g. "abc".elems()) implement this. */
export interface Indexable {
  readonly len: number;
  index(i: number): Value;
}
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
  return (
    v instanceof List ||
    v instanceof Tuple ||
    v instanceof Dict ||
    v instanceof SSet ||
    v instanceof RangeValue ||
    (v !== null && typeof v === 'object' && typeof (v as unknown as { iterate?: unknown }).iterate === 'function')
  );
}

/** Host-defined iterables implement this (e.g. test helpers). */
export interface CustomIterable {
  iterate(): Iterator<Value>;
}

/**
 * Iterate over v, calling f for each element. Lists, dicts and sets are
 * protected against mutation during the loop. Returning true from f stops.
 */
export function forEach(v: Value, f: (x: Value) => boolean | undefined): void {
  if (v instanceof List) {
    v.itercount++;
    try {
      const e = v.elems;
      for (let i = 0; i < e.length; i++) if (f(e[i]!) === true) return;
    } finally {
      v.itercount--;
    }
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
      if (ht.keys === null) {
        for (const k of ht.vals.keys()) if (f(k) === true) return;
      } else for (const k of ht.vals.keys()) if (f(ht.keyOf(k)) === true) return;
    } finally {
      ht.itercount--;
    }
    return;
  }
  if (v instanceof RangeValue) {
    if (v.small) {
      const start = v.start as number,
        step = v.step as number;
      for (let i = 0; i < v.len; i++) if (f(start + i * step) === true) return;
    } else for (let i = 0; i < v.len; i++) if (f(v.at(i)) === true) return;
    return;
  }
  if (v !== null && typeof v === 'object' && typeof (v as unknown as CustomIterable).iterate === 'function') {
    const it = (v as unknown as CustomIterable).iterate();
    for (let r = it.next(); !r.done; r = it.next()) if (f(r.value) === true) return;
    return;
  }
  throw new EvalErr(`${typeName(v)} value is not iterable`);
}

/** A snapshot array of the elements of an iterable, charged to th. */
export function toArray(v: Value, th: Thread): Value[] {
  if (v instanceof RangeValue) th.checkElems(v.len);
  const n = length(v);
  if (n > 64) th.chargeSteps(n);
  if (v instanceof List || v instanceof Tuple) return v.elems.slice();
  if (v instanceof Dict || v instanceof SSet) return v.ht.keyList();
  const out: Value[] = [];
  forEach(v, (x) => {
    // host iterables may be long or endless
    if ((out.length & 0xffff) === 0xffff) th.checkElems(out.length + 1);
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
  if (x instanceof Struct && x.indexable) return structIndex(x, y);
  let n: number;
  if (typeof x === 'string') n = x.length;
  else if (x instanceof List || x instanceof Tuple) n = x.elems.length;
  else if (x instanceof Bytes) n = x.s.length;
  else if (x instanceof RangeValue) n = x.len;
  else if (isIndexable(x)) n = x.len;
  else throw new EvalErr(`unhandled index operation ${typeName(x)}[${typeName(y)}]`);
  let i: number;
  try {
    i = asInt32(y);
  } catch (e) {
    throw new EvalErr(`${typeName(x)} index: ${(e as EvalErr).msg}`);
  }
  const orig = i;
  if (i < 0) i += n;
  if (i < 0 || i >= n) throw outOfRange(orig, n, x);
  if (typeof x === 'string') return x[i]!;
  if (x instanceof Bytes) return new Bytes(x.s[i]!);
  if (x instanceof RangeValue) return x.at(i);
  if (isIndexable(x)) return x.index(i);
  return (x as List).elems[i]!;
}

/** `x["name"]` on an indexable struct: the field, as `x.name` gives it. */
function structIndex(x: Struct, y: Value): Value {
  if (typeof y !== 'string') throw new EvalErr(`struct index: got ${typeName(y)}, want string`);
  // field names are JS text, a Starlark string its UTF-8 bytes
  const name = decodeUTF8(y);
  const v = x.field(name);
  if (v !== undefined) return v;
  let msg = `key ${reprOf(y)} not in struct`;
  const n = nearest(name, x.fieldNames());
  if (n) msg += ` (did you mean ${reprOf(encodeUTF8(n))}?)`;
  throw new EvalErr(msg);
}

export function setIndex(x: Value, y: Value, z: Value, th: Thread): void {
  if (x instanceof Dict) {
    dictSet(x, y, z, th);
    return;
  }
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

/**
 * x[lo:hi:step]; copying is charged to th (one step per 64 elements; a string with step 1 is not
 * copied), element by element when the step is not 1 (a JS loop: the clock is consulted inside it).
 */
export function slice(x: Value, lo: Value, hi: Value, stepv: Value, th: Thread): Value {
  let n: number;
  if (typeof x === 'string') n = x.length;
  else if (x instanceof List || x instanceof Tuple) n = x.elems.length;
  else if (x instanceof Bytes) n = x.s.length;
  else if (x instanceof RangeValue) n = x.len;
  else throw new EvalErr(`invalid slice operand ${typeName(x)}`);
  let step = 1;
  if (stepv !== null) {
    try {
      step = asInt32(stepv);
    } catch (e) {
      throw new EvalErr(`invalid slice step: ${(e as EvalErr).msg}`);
    }
    if (step === 0) throw new EvalErr('zero is not a valid slice step');
  }
  let start: number, end: number;
  if (step > 0) {
    try {
      start = asIndex(lo, n, 0);
    } catch (e) {
      throw new EvalErr(`invalid start index: ${(e as EvalErr).msg}`);
    }
    start = start < 0 ? 0 : start > n ? n : start;
    try {
      end = asIndex(hi, n, n);
    } catch (e) {
      throw new EvalErr(`invalid end index: ${(e as EvalErr).msg}`);
    }
    end = end < 0 ? 0 : end > n ? n : end;
    if (end < start) end = start;
  } else {
    try {
      start = asIndex(lo, n, n - 1);
    } catch (e) {
      throw new EvalErr(`invalid start index: ${(e as EvalErr).msg}`);
    }
    if (start >= n) start = n - 1;
    try {
      end = asIndex(hi, n, -1);
    } catch (e) {
      throw new EvalErr(`invalid end index: ${(e as EvalErr).msg}`);
    }
    if (end < -1) end = -1;
    if (start < end) start = end;
  }
  const count = step > 0 ? Math.ceil((end - start) / step) : Math.ceil((start - end) / -step);
  if (step === 1 && count > 64 && typeof x !== 'string' && !(x instanceof RangeValue)) th.chargeSteps(count);
  /** one element copied by a loop: charged 64K at a time */
  let copied = 0;
  const charge = (): void => {
    if (++copied === 0x10000) {
      th.chargeSteps(copied);
      copied = 0;
    }
  };
  if (typeof x === 'string' || x instanceof Bytes) {
    const s = typeof x === 'string' ? x : x.s;
    let r: string;
    if (step === 1) r = s.slice(start, end);
    else {
      // bytes in a buffer (a binary string is latin1): an array of one-char strings joined took
      // seconds for 10 MB, the join alone uninterruptible
      const src = Buffer.from(s, 'latin1');
      const out = Buffer.allocUnsafe(count);
      let k = 0;
      if (step > 0)
        for (let i = start; i < end; i += step) {
          charge();
          out[k++] = src[i]!;
        }
      else
        for (let i = start; i > end; i += step) {
          charge();
          out[k++] = src[i]!;
        }
      r = out.toString('latin1');
    }
    return typeof x === 'string' ? r : new Bytes(r);
  }
  if (x instanceof RangeValue) {
    // exact whatever the sizes (start and end are indices in [-1, len]; the new step may pass 2^53)
    const b0 = BigInt(x.start),
      bstep = BigInt(x.step);
    const nstart = exactInt(b0 + BigInt(start) * bstep),
      nstop = exactInt(b0 + BigInt(end) * bstep),
      nstep = exactInt(bstep * BigInt(step));
    const len = step > 0 ? Math.max(0, Math.ceil((end - start) / step)) : Math.max(0, Math.ceil((start - end) / -step));
    return new RangeValue(nstart, nstop, nstep, len);
  }
  const e = (x as List | Tuple).elems;
  let out: Value[];
  if (step === 1) out = e.slice(start, end);
  else {
    out = [];
    if (step > 0)
      for (let i = start; i < end; i += step) {
        charge();
        out.push(e[i]!);
      }
    else
      for (let i = start; i > end; i += step) {
        charge();
        out.push(e[i]!);
      }
  }
  return x instanceof List ? new List(out) : new Tuple(out);
}
