// Binary and unary operators (starlark-go's Binary and Unary).

import * as I from './int.js';
import { repr as reprOf, str, typeName } from './repr.js';
import { interpolate } from './format.js';
import { copyHT, dictGet, dictSet, setAdd, setHas } from './hash.js';
import { equals } from './compare.js';
import { asInt32 } from './sequence.js';
import { decodeUTF8 } from './utf8.js';
import { Bytes, Dict, EvalErr, Float, List, RangeValue, SSet, Struct, Tuple, type SValue, type Value } from './types.js';
import type { Thread } from '../thread.js';

export function truth(v: Value): boolean {
  if (v === null || v === false) return false;
  if (v === true) return true;
  switch (typeof v) {
    case 'number':
      return v !== 0;
    case 'string':
      return v.length > 0;
    case 'bigint':
      return true; // never zero (normalised)
  }
  return (v as SValue).truth();
}

// ---------------------------------------------------------------- operators

export type BinOp = '+' | '-' | '*' | '/' | '//' | '%' | '&' | '|' | '^' | '<<' | '>>' | 'in' | 'not in';

function finiteFloat(x: I.Int): number {
  const f = I.intToFloat(x);
  if (!Number.isFinite(f)) throw new EvalErr('int too large to convert to float');
  return f;
}

function isIntV(v: Value): v is number | bigint {
  return typeof v === 'number' || typeof v === 'bigint';
}

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
  if (x < 0 !== y < 0 && z !== 0) z += y;
  return z;
}

function repeat(n: Value, make: (k: number) => Value, unit: number): Value {
  let i: number;
  try {
    i = asInt32(n);
  } catch {
    throw new EvalErr(`repeat count ${reprOf(n)} too large`);
  }
  if (i < 1 || unit === 0) return make(0);
  if (unit * i >= 1 << 30) throw new EvalErr(`excessive repeat (${unit} * ${i} elements)`);
  return make(i);
}

function strRepeat(s: string, n: Value, th: Thread): string {
  return repeat(
    n,
    (k) => {
      if (k > 0) {
        th.checkStrLen(s.length * k);
        th.chargeAlloc(s.length * k);
        th.chargeSteps((s.length * k) >> 4);
      }
      return k > 0 ? s.repeat(k) : '';
    },
    s.length,
  ) as string;
}

function elemsRepeat(e: Value[], n: Value, th: Thread): Value[] {
  let out: Value[] = [];
  repeat(
    n,
    (k) => {
      if (k > 0) {
        th.checkElems(e.length * k);
        th.chargeAlloc(8 * e.length * k);
        th.chargeSteps(e.length * k);
      }
      out = new Array(e.length * k);
      for (let j = 0; j < k; j++) for (let i = 0; i < e.length; i++) out[j * e.length + i] = e[i]!;
      return null;
    },
    e.length,
  );
  return out;
}

/** Membership test `x in y`. */
export function contains(y: Value, x: Value, th: Thread): boolean {
  if (typeof y === 'string') {
    if (typeof x !== 'string') throw new EvalErr(`'in <string>' requires string as left operand, not ${typeName(x)}`);
    if (y.length > 1024) th.chargeSteps(y.length >> 4);
    return y.includes(x);
  }
  if (y instanceof Dict) {
    try {
      return dictGet(y, x) !== undefined;
    } catch {
      return false;
    }
  }
  if (y instanceof List || y instanceof Tuple) {
    const e = y.elems;
    if (e.length > 64) th.chargeSteps(e.length);
    for (let i = 0; i < e.length; i++) if (equals(e[i]!, x, th)) return true;
    return false;
  }
  if (y instanceof SSet) return setHas(y, x);
  if (y instanceof Struct && y.indexable) {
    if (typeof x !== 'string') throw new EvalErr(`'in <struct>' requires string as left operand, not ${typeName(x)}`);
    return y.hasField(decodeUTF8(x)); // field names are JS text
  }
  if (y instanceof RangeValue) {
    let v: number | bigint;
    if (typeof x === 'number' || typeof x === 'bigint') v = x;
    else if (x instanceof Float && Number.isInteger(x.v)) v = x.v;
    else if (x instanceof Float) return false;
    else throw new EvalErr(`'in <range>' requires integer as left operand, not ${typeName(x)}`);
    if (y.len === 0) return false;
    if (y.small && typeof v === 'number' && Math.abs(v) <= 2 ** 51) {
      const d = v - (y.start as number);
      if (d % (y.step as number) !== 0) return false;
      const i = d / (y.step as number);
      return i >= 0 && i < y.len;
    }
    // exact: a float beyond 2^53 is an integer, and so is every bound
    const d = BigInt(v) - BigInt(y.start),
      step = BigInt(y.step);
    if (d % step !== 0n) return false;
    const i = d / step;
    return i >= 0n && i < BigInt(y.len);
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

/** x op y (starlark-go's Binary); work and allocation are charged to th. */
export function binary(op: BinOp, x: Value, y: Value, th: Thread): Value {
  let r: Value | undefined;
  switch (op) {
    case '+':
      r = plus(x, y, th);
      break;
    case '-':
      r = minus(x, y, th);
      break;
    case '*':
      r = times(x, y, th);
      break;
    case '/':
    case '//':
    case '%':
      r = divide(op, x, y, th);
      break;
    case 'in':
      return contains(y, x, th);
    case 'not in':
      return !contains(y, x, th);
    case '|':
    case '&':
    case '^':
      r = bitwise(op, x, y, th);
      break;
    case '<<':
    case '>>':
      r = shift(op, x, y, th);
      break;
  }
  if (r !== undefined) return r;
  if (x !== null && typeof x === 'object' && typeof (x as unknown as HasBinary).binary === 'function') {
    r = (x as unknown as HasBinary).binary(op, y, 'left');
    if (r !== undefined) return r;
  }
  if (y !== null && typeof y === 'object' && typeof (y as unknown as HasBinary).binary === 'function') {
    r = (y as unknown as HasBinary).binary(op, x, 'right');
    if (r !== undefined) return r;
  }
  throw new EvalErr(`unknown binary op: ${typeName(x)} ${op} ${typeName(y)}`);
}

// Each operator below returns undefined for operand types it does not handle,
// leaving them to host types (HasBinary) and then to the "unknown binary op" error.

function plus(x: Value, y: Value, th: Thread): Value | undefined {
  if (typeof x === 'string') {
    if (typeof y !== 'string') return undefined;
    const n = x.length + y.length;
    if (n > 4096) {
      th.checkStrLen(n);
      th.chargeAlloc(y.length);
    }
    return x + y;
  }
  if (isIntV(x) && isIntV(y)) return I.charged(I.add(x, y), th);
  const f = floats(x, y);
  if (f) return new Float(f[0] + f[1]);
  if ((x instanceof List && y instanceof List) || (x instanceof Tuple && y instanceof Tuple)) {
    const n = x.elems.length + y.elems.length;
    th.checkElems(n);
    th.chargeAlloc(8 * n);
    if (x instanceof List) {
      th.chargeSteps(n);
      return new List(x.elems.concat(y.elems));
    }
    return new Tuple(x.elems.concat(y.elems));
  }
  if (x instanceof Struct && y instanceof Struct) {
    if (!equals(x.ctor, y.ctor, th)) throw new EvalErr(`cannot add structs of different constructors: ${str(x.ctor, th)} + ${str(y.ctor, th)}`);
    const fields = new Map(x.fields);
    for (const [k, v] of y.fields) fields.set(k, v);
    return new Struct(new Map([...fields].sort((a, b) => (a[0] < b[0] ? -1 : 1))), x.ctor);
  }
  return undefined;
}

function minus(x: Value, y: Value, th: Thread): Value | undefined {
  if (isIntV(x) && isIntV(y)) return I.charged(I.sub(x, y), th);
  const f = floats(x, y);
  if (f) return new Float(f[0] - f[1]);
  if (x instanceof SSet && y instanceof SSet) {
    const r = new SSet();
    for (const [hk, k] of x.ht.vals) if (!y.ht.vals.has(hk)) setAdd(r, k, th);
    return r;
  }
  return undefined;
}

function times(x: Value, y: Value, th: Thread): Value | undefined {
  if (isIntV(x)) {
    if (isIntV(y)) return I.charged(I.mul(x, y), th);
    if (y instanceof Float) return new Float(finiteFloat(x) * y.v);
    return repeated(y, x, th);
  }
  if (x instanceof Float) {
    const f = floats(x, y);
    return f ? new Float(f[0] * f[1]) : undefined;
  }
  return isIntV(y) ? repeated(x, y, th) : undefined;
}

/** seq * n for strings, bytes, lists and tuples */
function repeated(seq: Value, n: I.Int, th: Thread): Value | undefined {
  if (typeof seq === 'string') return strRepeat(seq, n, th);
  if (seq instanceof Bytes) return new Bytes(strRepeat(seq.s, n, th));
  if (seq instanceof List) return new List(elemsRepeat(seq.elems, n, th));
  if (seq instanceof Tuple) return new Tuple(elemsRepeat(seq.elems, n, th));
  return undefined;
}

/** / (true division), // (floored) and % (modulo, or string interpolation) */
function divide(op: '/' | '//' | '%', x: Value, y: Value, th: Thread): Value | undefined {
  if (isIntV(x) && isIntV(y)) {
    if (op === '/') {
      const fy = finiteFloat(y),
        fx = finiteFloat(x);
      if (fy === 0) throw new EvalErr('floating-point division by zero');
      return new Float(fx / fy);
    }
    if (y === 0) throw new EvalErr(op === '//' ? 'floored division by zero' : 'integer modulo by zero');
    return I.charged(op === '//' ? I.floorDiv(x, y) : I.mod(x, y), th);
  }
  if (op === '%' && typeof x === 'string') return interpolate(x, y, th);
  const f = floats(x, y);
  if (!f) return undefined;
  if (f[1] === 0)
    throw new EvalErr(op === '/' ? 'floating-point division by zero' : op === '//' ? 'floored division by zero' : 'floating-point modulo by zero');
  if (op === '/') return new Float(f[0] / f[1]);
  return new Float(op === '//' ? Math.floor(f[0] / f[1]) : floatMod(f[0], f[1]));
}

/** |, & and ^ on ints and sets; | also merges dicts */
function bitwise(op: '|' | '&' | '^', x: Value, y: Value, th: Thread): Value | undefined {
  if (isIntV(x) && isIntV(y)) return I.charged(op === '|' ? I.bitOr(x, y) : op === '&' ? I.bitAnd(x, y) : I.bitXor(x, y), th);
  if (op === '|' && x instanceof Dict && y instanceof Dict) {
    const r = new Dict();
    copyHT(x.ht, r.ht);
    for (const [hk, v] of y.ht.vals) dictSet(r, y.ht.keyOf(hk), v, th);
    return r;
  }
  if (!(x instanceof SSet && y instanceof SSet)) return undefined;
  const r = new SSet();
  if (op === '|') {
    copyHT(x.ht, r.ht);
    for (const k of y.ht.keyList()) setAdd(r, k, th);
  } else if (op === '&') {
    for (const [hk, k] of x.ht.vals) if (y.ht.vals.has(hk)) setAdd(r, k, th);
  } else {
    for (const [hk, k] of x.ht.vals) if (!y.ht.vals.has(hk)) setAdd(r, k, th);
    for (const [hk, k] of y.ht.vals) if (!x.ht.vals.has(hk)) setAdd(r, k, th);
  }
  return r;
}

function shift(op: '<<' | '>>', x: Value, y: Value, th: Thread): Value | undefined {
  if (!isIntV(x)) return undefined;
  const n = asInt32(y);
  if (n < 0) throw new EvalErr(`negative shift count: ${n}`);
  if (op === '>>') return I.charged(I.rsh(x, n), th);
  if (n >= 512) throw new EvalErr(`shift count too large: ${n}`);
  return I.charged(I.lsh(x, n), th);
}

/** Host types may implement binary operators (like starlark.HasBinary). */
export interface HasBinary {
  binary(op: BinOp, y: Value, side: 'left' | 'right'): Value | undefined;
}

/** op x (starlark-go's Unary); large int results are charged to th. */
export function unary(op: '-' | '+' | '~' | 'not', x: Value, th: Thread): Value {
  if (op === 'not') return !truth(x);
  if (isIntV(x)) {
    if (op === '-') return I.charged(I.neg(x), th);
    if (op === '+') return x;
    return I.charged(I.bitNot(x), th);
  }
  if (x instanceof Float) {
    if (op === '-') return new Float(-x.v);
    if (op === '+') return x;
  }
  throw new EvalErr(`unknown unary op: ${op} ${typeName(x)}`);
}
