// Binary and unary operators (starlark-go's Binary and Unary).

import * as I from './int.js';
import { chargeAlloc, checkElems, checkStrLen } from './limits.js';
import { chargeSteps } from '../budget.js';
import { repr as reprOf, str, typeName } from './repr.js';
import { interpolate } from '../format.js';
import { copyHT, dictGet, dictSet, setAdd, setHas } from './hash.js';
import { equals } from './compare.js';
import { asInt32 } from './sequence.js';
import { Bytes, Dict, EvalErr, Float, List, RangeValue, SSet, Struct, Tuple, type SValue, type Value } from './types.js';

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
