// Equality and ordering of values (starlark-go's CompareDepth).

import * as I from './int.js';
import { typeName } from './repr.js';
import { dictGet } from './hash.js';
import { Bytes, Dict, EvalErr, Float, List, RangeValue, SSet, Struct, Tuple, type Value } from './types.js';
import type { Thread } from '../thread.js';

// ---------------------------------------------------------------- equality and ordering

const COMPARE_LIMIT = 10;

// Comparing large values is charged to the thread by the work it does (one step per KiB of text
// compared, per 64 elements or entries), so that the clock is consulted while a sort, a `==` of big
// lists or a scan of `in` runs; th is null for host code outside a run.

/** Charge the comparison of two long strings (the common prefix is at most the shorter one). */
function chargeText(th: Thread | null, a: string, b: string): void {
  if (th !== null && a.length > 1024 && b.length > 1024) th.chargeSteps(Math.min(a.length, b.length) >> 4);
}

export type CmpOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

export function equals(x: Value, y: Value, th: Thread | null = null): boolean {
  if (typeof x === 'string') {
    if (typeof y === 'string') chargeText(th, x, y);
    return x === y;
  }
  if (typeof x === 'number') return x === y || (y instanceof Float && x === y.v);
  return compareDepth('==', x, y, COMPARE_LIMIT, th);
}

export function compare(op: CmpOp, x: Value, y: Value, th: Thread | null = null): boolean {
  return compareDepth(op, x, y, COMPARE_LIMIT, th);
}

function threeway(op: CmpOp, c: number): boolean {
  switch (op) {
    case '==':
      return c === 0;
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
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

export function compareDepth(op: CmpOp, x: Value, y: Value, depth: number, th: Thread | null = null): boolean {
  if (depth < 1) throw new EvalErr('comparison exceeded maximum recursion depth');
  const tx = typeof x,
    ty = typeof y;
  if ((tx === 'number' || tx === 'bigint') && (ty === 'number' || ty === 'bigint')) return threeway(op, I.cmpInt(x as I.Int, y as I.Int));
  if (tx === 'string' && ty === 'string') {
    chargeText(th, x as string, y as string);
    return threeway(op, x! < y! ? -1 : x! > y! ? 1 : 0);
  }
  if (x instanceof Float) {
    if (y instanceof Float) return threeway(op, floatCmp(x.v, y.v));
    if (ty === 'number' || ty === 'bigint') return threeway(op, -intFloatCmp(y as I.Int, x.v));
  } else if (y instanceof Float && (tx === 'number' || tx === 'bigint')) {
    return threeway(op, intFloatCmp(x as I.Int, y.v));
  }
  if (sameTypeName(x, y)) {
    if (tx === 'boolean') return threeway(op, (x ? 1 : 0) - (y ? 1 : 0));
    if (x instanceof List) return sliceCompare(op, x.elems, (y as List).elems, depth, th);
    if (x instanceof Tuple) return sliceCompare(op, x.elems, (y as Tuple).elems, depth, th);
    if (x instanceof Bytes) {
      const a = x.s,
        b = (y as Bytes).s;
      chargeText(th, a, b);
      return threeway(op, a < b ? -1 : a > b ? 1 : 0);
    }
    if (x instanceof Dict) {
      if (op === '==' || op === '!=') return dictsEqual(x, y as Dict, depth, th) === (op === '==');
    } else if (x instanceof SSet) {
      if (th !== null && x.ht.size > 64) th.chargeSteps(Math.min(x.ht.size, (y as SSet).ht.size));
      return setCompare(op, x, y as SSet);
    } else if (x instanceof Struct) {
      if (op === '==' || op === '!=') return structsEqual(x, y as Struct, depth, th) === (op === '==');
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

function sliceCompare(op: CmpOp, x: Value[], y: Value[], depth: number, th: Thread | null): boolean {
  if (x.length !== y.length && (op === '==' || op === '!=')) return op === '!=';
  const n = Math.min(x.length, y.length);
  if (th !== null && n > 64) th.chargeSteps(n);
  for (let i = 0; i < n; i++) {
    if (!compareDepth('==', x[i]!, y[i]!, depth - 1, th)) {
      if (op === '==') return false;
      if (op === '!=') return true;
      return compareDepth(op, x[i]!, y[i]!, depth - 1, th);
    }
  }
  return threeway(op, x.length - y.length);
}

function dictsEqual(x: Dict, y: Dict, depth: number, th: Thread | null): boolean {
  if (x.ht.size !== y.ht.size) return false;
  if (th !== null && x.ht.size > 64) th.chargeSteps(x.ht.size);
  for (const [hk, xv] of x.ht.vals) {
    const yv = dictGet(y, x.ht.keyOf(hk));
    if (yv === undefined || !compareDepth('==', xv, yv, depth - 1, th)) return false;
  }
  return true;
}

function structsEqual(x: Struct, y: Struct, depth: number, th: Thread | null): boolean {
  if (x.fields.size !== y.fields.size || !compareDepth('==', x.ctor, y.ctor, depth - 1, th)) return false;
  for (const [k, v] of x.fields) {
    const w = y.fields.get(k);
    if (w === undefined || !compareDepth('==', v, w, depth - 1, th)) return false;
  }
  return true;
}

function isSubset(x: SSet, y: SSet): boolean {
  for (const hk of x.ht.vals.keys()) if (!y.ht.vals.has(hk)) return false;
  return true;
}

function setCompare(op: CmpOp, x: SSet, y: SSet): boolean {
  const nx = x.ht.size,
    ny = y.ht.size;
  switch (op) {
    case '==':
      return nx === ny && isSubset(x, y);
    case '!=':
      return !(nx === ny && isSubset(x, y));
    case '>=':
      return nx >= ny && isSubset(y, x);
    case '<=':
      return nx <= ny && isSubset(x, y);
    case '>':
      return nx > ny && isSubset(y, x);
    case '<':
      return nx < ny && isSubset(x, y);
  }
}
