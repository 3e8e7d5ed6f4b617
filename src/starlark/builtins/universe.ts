// The universal built-in functions of Starlark (spec: "Built-in constants and
// functions"), with starlark-go's behaviour and error messages.

import { callValue } from '../runtime.js';
import { attrNames, getAttr, hasAttr } from '../attrs.js';
import * as ops from '../values/ops.js';
import * as I from '../values/int.js';
import { repr, str, typeName } from '../values/repr.js';
import { decodeRune, decodeUTF8, encodeUTF8, runeToUTF8 } from '../values/utf8.js';
import { Builtin, Bytes, Dict, EvalErr, Float, Func, List, RangeValue, SSet, Tuple, type Kwargs, type Value } from '../values/types.js';
import type { Thread } from '../thread.js';
import { positional, unpack, wantInt, wantStr } from './args.js';

type Fn = (args: Value[], kwargs: Kwargs, self: Builtin, th: Thread) => Value;

function noKw(name: string, kwargs: Kwargs): void {
  if (kwargs && kwargs.length > 0) throw new EvalErr(`${name} does not accept keyword arguments`);
}

function nameErr(name: string, msg: string): EvalErr {
  return new EvalErr(`${name}: ${msg}`);
}

function iterOrErr(name: string, v: Value): void {
  if (!ops.isIterable(v)) throw new EvalErr(`${name}: for parameter 1: got ${typeName(v)}, want iterable`);
}

/** Parse an int literal string in the given base (0 = infer), like starlark-go parseInt. */
export function parseIntStr(s: string, base: number): I.Int | null {
  let neg = false;
  if (s !== '') {
    if (s[0] === '+') s = s.slice(1);
    else if (s[0] === '-') {
      neg = true;
      s = s.slice(1);
    }
  }
  let prefix = 0;
  if (s.length > 1 && s[0] === '0') {
    if (s.length > 2) {
      const c = s[1]!.toLowerCase();
      prefix = c === 'o' ? 8 : c === 'x' ? 16 : c === 'b' ? 2 : 0;
    }
    if (prefix !== 0) {
      if (base === 0 || prefix === base) {
        base = prefix;
        s = s.slice(2);
      }
    } else if (base === 0) {
      for (let i = 1; i < s.length; i++) if (s[i] !== '0') return null;
      return 0;
    }
  }
  if (base === 0) base = 10;
  if (s === '' || s[0] === '-' || s[0] === '+') return null;
  const digits = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, base);
  I.checkDigits(s.length, base);
  let v = 0n;
  const bb = BigInt(base);
  for (let i = 0; i < s.length; i++) {
    const d = digits.indexOf(s[i]!.toLowerCase());
    if (d < 0) return null;
    v = v * bb + BigInt(d);
  }
  return I.norm(neg ? -v : v);
}

function javaStringHash(s: string): number {
  // s is a binary UTF-8 string; hash its UTF-16 code units like Java.
  const t = decodeUTF8(s);
  let h = 0;
  for (let i = 0; i < t.length; i++) h = (Math.imul(31, h) + t.charCodeAt(i)) | 0;
  return h;
}

function softHashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h;
}

export function floatFromString(s: string): number {
  if (s === '') throw new EvalErr('float: empty string');
  const lower = s.toLowerCase();
  if (lower === 'inf' || lower === '+inf' || lower === 'infinity' || lower === '+infinity') return Infinity;
  if (lower === '-inf' || lower === '-infinity') return -Infinity;
  if (lower === 'nan' || lower === '+nan' || lower === '-nan') return NaN;
  // decimal syntax accepted by Go's strconv.ParseFloat
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw new EvalErr(`invalid float literal: ${s}`);
  const f = Number(s);
  if (Number.isNaN(f)) throw new EvalErr(`invalid float literal: ${s}`);
  if (!Number.isFinite(f)) throw new EvalErr('floating-point number too large');
  return f;
}

/**
 * Charge a built-in that walks all of x: one step per 64 elements (per KiB of a string). Lengths
 * unknown in advance (-1) are charged by the iteration itself.
 */
function chargeLength(x: Value, th: Thread): void {
  const n = typeof x === 'string' ? x.length >> 4 : x instanceof Bytes ? x.s.length >> 4 : ops.isIterable(x) ? ops.length(x) : 0;
  if (n > 64) th.chargeSteps(n);
}

function updateDict(d: Dict, args: Value[], kwargs: Kwargs, th: Thread): void {
  if (args.length === 1) {
    const u = args[0]!;
    chargeLength(u, th);
    if (u instanceof Dict) {
      for (const [hk, v] of u.ht.vals) ops.dictSet(d, u.ht.keyOf(hk), v, th);
    } else {
      if (!ops.isIterable(u)) throw new EvalErr(`got ${typeName(u)}, want iterable`);
      let i = 0;
      ops.forEach(u, (pair) => {
        if (!ops.isIterable(pair)) throw new EvalErr(`dictionary update sequence element #${i} is not iterable (${typeName(pair)})`);
        const n = ops.length(pair);
        if (n < 0) throw new EvalErr(`dictionary update sequence element #${i} has unknown length (${typeName(pair)})`);
        if (n !== 2) throw new EvalErr(`dictionary update sequence element #${i} has length ${n}, want 2`);
        const [k, v] = ops.toArray(pair, th) as [Value, Value];
        ops.dictSet(d, k, v, th);
        i++;
      });
    }
  }
  if (kwargs) {
    const seen = new Set<string>();
    for (const [k, v] of kwargs) {
      if (seen.has(k)) throw new EvalErr(`duplicate keyword arg: ${repr(k)}`);
      seen.add(k);
      ops.dictSet(d, encodeUTF8(k), v, th);
    }
  }
}
export { updateDict };

function minmax(args: Value[], kwargs: Kwargs, self: Builtin, th: Thread): Value {
  const name = self.name;
  if (args.length === 0) throw new EvalErr(`${name} requires at least one positional argument`);
  const [key] = unpack(name, [], kwargs, ['key?']);
  if (key !== undefined && !isCallable(key)) throw new EvalErr(`${name}: for parameter key: got ${typeName(key)}, want callable`);
  const op = name === 'max' ? '>' : '<';
  const it = args.length === 1 ? args[0]! : new Tuple(args);
  if (!ops.isIterable(it)) throw new EvalErr(`${name}: ${typeName(it)} value is not iterable`);
  const xs = ops.toArray(it, th);
  if (xs.length === 0) throw nameErr(name, 'argument is an empty sequence');
  let ext = xs[0]!;
  let extKey = key !== undefined && key !== null ? callValue(th, key, [ext], null) : ext;
  for (let i = 1; i < xs.length; i++) {
    const x = xs[i]!;
    const k = key !== undefined && key !== null ? callValue(th, key, [x], null) : x;
    let better: boolean;
    try {
      better = ops.compare(op, k, extKey, th);
    } catch (e) {
      throw nameErr(name, (e as EvalErr).msg);
    }
    if (better) {
      ext = x;
      extKey = k;
    }
  }
  return ext;
}

function isCallable(v: Value): boolean {
  return v instanceof Builtin || v instanceof Func || (v !== null && typeof v === 'object' && typeof (v as { callStar?: unknown }).callStar === 'function');
}

/**
 * The number of elements, computed exactly; a range longer than 2^53 - 1 elements is refused (its
 * length, indexes and iteration count could not be exact JS numbers).
 */
function rangeLen(start: number | bigint, stop: number | bigint, step: number | bigint): number {
  if (typeof start === 'number' && typeof stop === 'number' && typeof step === 'number' && Math.abs(start) <= 2 ** 51 && Math.abs(stop) <= 2 ** 51) {
    if (step > 0) return start < stop ? Math.floor((stop - 1 - start) / step) + 1 : 0;
    return start > stop ? Math.floor((start - 1 - stop) / -step) + 1 : 0;
  }
  const b0 = BigInt(start),
    b1 = BigInt(stop),
    bs = BigInt(step);
  const n = bs > 0n ? (b0 < b1 ? (b1 - 1n - b0) / bs + 1n : 0n) : b0 > b1 ? (b0 - 1n - b1) / -bs + 1n : 0n;
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new EvalErr(`range: length ${n} exceeds the limit of ${Number.MAX_SAFE_INTEGER} elements`);
  return Number(n);
}

export function sortValues(values: Value[], keys: Value[] | null, reverse: boolean, th: Thread): Value[] {
  if (values.length > 64) th.chargeSteps(values.length);
  const idx = values.map((_, i) => i);
  const k = keys ?? values;
  // Comparisons are charged as they happen (one step per 64), so the clock is consulted inside the sort.
  let compared = 0;
  const cmp = (a: number, b: number): number => {
    if (++compared === 4096) {
      th.chargeSteps(compared);
      compared = 0;
    }
    const x = k[a]!,
      y = k[b]!;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'string' && typeof y === 'string') {
      // long strings are charged by length, and the clock is consulted inside the sort
      if (x.length > 1024 && y.length > 1024) th.chargeSteps(Math.min(x.length, y.length) >> 4);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    return ops.compare('<', x, y, th) ? -1 : ops.compare('<', y, x, th) ? 1 : 0;
  };
  try {
    idx.sort(reverse ? (a, b) => cmp(b, a) : cmp);
  } catch (e) {
    if (e instanceof EvalErr) throw goSortError(k, reverse) ?? e;
    throw e;
  }
  return idx.map((i) => values[i]!);
}

/**
 * starlark-go sorts with Go's sort.Stable (insertion sort on small inputs)
 * and reports the last comparison error; replay that order to report the
 * same operands.
 */
function goSortError(keys: Value[], reverse: boolean): EvalErr | null {
  const a = keys.slice();
  let err: EvalErr | null = null;
  const less = (i: number, j: number): boolean => {
    const [x, y] = reverse ? [a[j]!, a[i]!] : [a[i]!, a[j]!];
    try {
      return ops.compare('<', x, y);
    } catch (e) {
      if (e instanceof EvalErr) err = e;
      else throw e;
      return false;
    }
  };
  for (let i = 1; i < a.length && i < 20; i++) {
    for (let j = i; j > 0 && less(j, j - 1); j--) [a[j], a[j - 1]] = [a[j - 1]!, a[j]!];
  }
  return err;
}

export const universeFns: Record<string, Fn> = {
  abs(args, kwargs) {
    const [x] = positional('abs', args, kwargs, 1, 1) as [Value];
    if (x instanceof Float) return new Float(Math.abs(x.v));
    if (typeof x === 'number' || typeof x === 'bigint') return I.sign(x) >= 0 ? x : I.neg(x);
    throw new EvalErr(`got ${typeName(x)}, want int or float`);
  },
  any(args, kwargs, _self, th) {
    const [x] = positional('any', args, kwargs, 1, 1) as [Value];
    iterOrErr('any', x);
    chargeLength(x, th);
    let r = false;
    ops.forEach(x, (v) => {
      if (ops.truth(v)) {
        r = true;
        return true;
      }
      return false;
    });
    return r;
  },
  all(args, kwargs, _self, th) {
    const [x] = positional('all', args, kwargs, 1, 1) as [Value];
    iterOrErr('all', x);
    chargeLength(x, th);
    let r = true;
    ops.forEach(x, (v) => {
      if (!ops.truth(v)) {
        r = false;
        return true;
      }
      return false;
    });
    return r;
  },
  bool(args, kwargs) {
    const [x] = positional('bool', args, kwargs, 0, 1);
    return x === undefined ? false : ops.truth(x);
  },
  bytes(args, kwargs, _self, th) {
    noKw('bytes', kwargs);
    if (args.length === 1) chargeLength(args[0]!, th);
    if (args.length !== 1) throw new EvalErr(`bytes: got ${args.length} arguments, want exactly 1`);
    const x = args[0]!;
    if (x instanceof Bytes) return x;
    if (typeof x === 'string') return new Bytes(utf8Transcode(x));
    if (ops.isIterable(x)) {
      let out = '';
      let i = 0;
      ops.forEach(x, (e) => {
        if (typeof e !== 'number' && typeof e !== 'bigint') throw new EvalErr(`bytes: at index ${i}, got ${typeName(e)}, want int`);
        if (typeof e !== 'number' || e < 0 || e > 255) throw new EvalErr(`bytes: at index ${i}, ${e} out of range (want value in unsigned 8-bit range)`);
        out += String.fromCharCode(e);
        i++;
      });
      return new Bytes(out);
    }
    throw new EvalErr(`bytes: got ${typeName(x)}, want string, bytes, or iterable of ints`);
  },
  chr(args, kwargs) {
    noKw('chr', kwargs);
    if (args.length !== 1) throw new EvalErr(`chr: got ${args.length} arguments, want 1`);
    const x = args[0]!;
    if (typeof x !== 'number') {
      if (typeof x === 'bigint') throw new EvalErr(`chr: ${x} out of range`);
      throw new EvalErr(`chr: got ${typeName(x)}, want int`);
    }
    if (x < 0) throw new EvalErr(`chr: Unicode code point ${x} out of range (<0)`);
    if (x > 0x10ffff) throw new EvalErr(`chr: Unicode code point U+${x.toString(16).toUpperCase()} out of range (>0x10FFFF)`);
    return runeToUTF8(x);
  },
  dict(args, kwargs, _self, th) {
    if (args.length > 1) throw new EvalErr(`dict: got ${args.length} arguments, want at most 1`);
    const d = new Dict();
    try {
      updateDict(d, args, kwargs, th);
    } catch (e) {
      if (e instanceof EvalErr) throw new EvalErr(`dict: ${e.msg}`);
      throw e;
    }
    return d;
  },
  dir(args, kwargs) {
    noKw('dir', kwargs);
    if (args.length !== 1) throw new EvalErr(`dir: got ${args.length} arguments, want 1`);
    return new List(attrNames(args[0]!).map(encodeUTF8)); // names are identifier text
  },
  enumerate(args, kwargs, _self, th) {
    const [it, start] = positional('enumerate', args, kwargs, 1, 2);
    if (!ops.isIterable(it!)) throw new EvalErr(`enumerate: for parameter 1: got ${typeName(it!)}, want iterable`);
    const s = start === undefined ? 0 : wantInt('enumerate', 2, start);
    return new List(ops.toArray(it!, th).map((x, i) => new Tuple([s + i, x])));
  },
  fail(args, kwargs, _self, th) {
    const [sepv] = unpack('fail', [], kwargs, ['sep?']);
    const sep = sepv === undefined ? ' ' : wantStr('fail', 'sep', sepv);
    const e = new EvalErr('fail: ' + args.map((v) => str(v, th)).join(sep), 'fail');
    throw e;
  },
  float(args, kwargs) {
    noKw('float', kwargs);
    if (args.length === 0) return new Float(0);
    if (args.length !== 1) throw new EvalErr(`float got ${args.length} arguments, wants 1`);
    const x = args[0]!;
    if (typeof x === 'boolean') return new Float(x ? 1 : 0);
    if (typeof x === 'number') return new Float(x);
    if (typeof x === 'bigint') {
      const f = Number(x);
      if (!Number.isFinite(f)) throw new EvalErr('int too large to convert to float');
      return new Float(f);
    }
    if (x instanceof Float) return x;
    if (typeof x === 'string') return new Float(floatFromString(x));
    throw new EvalErr(`float got ${typeName(x)}, want number or string`);
  },
  getattr(args, kwargs) {
    const [obj, name, dflt] = positional('getattr', args, kwargs, 2, 3);
    const n = decodeUTF8(wantStr('getattr', 2, name!));
    if (hasAttr(obj!, n)) return getAttr(obj!, n);
    if (dflt !== undefined) return dflt;
    throw new EvalErr(`getattr: ${typeName(obj!)} has no .${n} field or method`);
  },
  hasattr(args, kwargs) {
    const [obj, name] = positional('hasattr', args, kwargs, 2, 2);
    return hasAttr(obj!, decodeUTF8(wantStr('hasattr', 2, name!)));
  },
  hash(args, kwargs, _self, th) {
    const [x] = positional('hash', args, kwargs, 1, 1) as [Value];
    chargeLength(x, th);
    if (typeof x === 'string') return javaStringHash(x);
    if (x instanceof Bytes) return softHashString(x.s);
    throw new EvalErr(`hash: got ${typeName(x)}, want string or bytes`);
  },
  int(args, kwargs, _self, th) {
    const [xv, base] = unpack('int', args, kwargs, ['x', 'base?']);
    const x = xv === undefined ? 0 : xv;
    if (typeof x === 'string') {
      let b = 10;
      if (base !== undefined) {
        if (typeof base !== 'number') throw new EvalErr(`int: for base, got ${typeName(base)}, want int`);
        b = base;
        if (b !== 0 && (b < 2 || b > 36)) throw new EvalErr('int: base must be an integer >= 2 && <= 36');
      }
      const r = parseIntStr(x, b);
      if (r === null) throw new EvalErr(`int: invalid literal with base ${b}: ${x}`);
      return I.charged(r, th);
    }
    if (base !== undefined) throw new EvalErr("int: can't convert non-string with explicit base");
    if (typeof x === 'boolean') return x ? 1 : 0;
    if (typeof x === 'number' || typeof x === 'bigint') return x;
    if (x instanceof Float) {
      if (!Number.isFinite(x.v)) throw new EvalErr(`int: cannot convert float ${Number.isNaN(x.v) ? 'NaN' : 'infinity'} to integer`);
      return I.floatToInt(x.v);
    }
    throw new EvalErr(`int: cannot convert ${typeName(x)} to int`);
  },
  len(args, kwargs) {
    const [x] = positional('len', args, kwargs, 1, 1) as [Value];
    const n = ops.length(x);
    if (n < 0) throw new EvalErr(`len: value of type ${typeName(x)} has no len`);
    return n;
  },
  list(args, kwargs, _self, th) {
    const [x] = positional('list', args, kwargs, 0, 1);
    if (x === undefined) return new List([]);
    iterOrErr('list', x);
    return new List(ops.toArray(x, th));
  },
  max: minmax,
  min: minmax,
  ord(args, kwargs) {
    noKw('ord', kwargs);
    if (args.length !== 1) throw new EvalErr(`ord: got ${args.length} arguments, want 1`);
    const x = args[0]!;
    if (typeof x === 'string') {
      if (x.length === 0) throw new EvalErr('ord: string encodes 0 Unicode code points, want 1');
      const [r, w] = decodeRune(x, 0);
      if (w !== x.length) {
        let n = 0;
        for (let i = 0; i < x.length; i += decodeRune(x, i)[1]) n++;
        throw new EvalErr(`ord: string encodes ${n} Unicode code points, want 1`);
      }
      return r;
    }
    if (x instanceof Bytes) {
      if (x.s.length !== 1) throw new EvalErr(`ord: bytes has length ${x.s.length}, want 1`);
      return x.s.charCodeAt(0);
    }
    throw new EvalErr(`ord: got ${typeName(x)}, want string or bytes`);
  },
  print(args, kwargs, _self, th) {
    const [sepv] = unpack('print', [], kwargs, ['sep?']);
    const sep = sepv === undefined ? ' ' : wantStr('print', 'sep', sepv);
    const s = args.map((v) => (v instanceof Bytes ? v.s : str(v, th))).join(sep);
    th.print(decodeUTF8(s));
    return null;
  },
  range(args, kwargs) {
    positional('range', args, kwargs, 1, 3);
    // Bounds in signed 64 bits, as starlark-go's; kept exact (BigInts beyond 2^53).
    const vals = args.map((a, i) => {
      if (typeof a === 'bigint') {
        if (a < -(1n << 63n) || a >= 1n << 63n) throw new EvalErr(`range: for parameter ${i + 1}: ${a} out of range (want value in signed 64-bit range)`);
        return a;
      }
      return wantInt('range', i + 1, a);
    });
    let start: number | bigint = 0,
      stop: number | bigint,
      step: number | bigint = 1;
    if (vals.length === 1) stop = vals[0]!;
    else {
      start = vals[0]!;
      stop = vals[1]!;
      if (vals.length === 3) step = vals[2]!;
    }
    if (step === 0) throw nameErr('range', 'step argument must not be zero');
    return new RangeValue(start, stop, step, rangeLen(start, stop, step));
  },
  repr(args, kwargs, _self, th) {
    const [x] = positional('repr', args, kwargs, 1, 1) as [Value];
    return repr(x, th);
  },
  reversed(args, kwargs, _self, th) {
    const [x] = positional('reversed', args, kwargs, 1, 1) as [Value];
    iterOrErr('reversed', x);
    return new List(ops.toArray(x, th).reverse());
  },
  set(args, kwargs, _self, th) {
    const [x] = positional('set', args, kwargs, 0, 1);
    const s = new SSet();
    if (x === undefined) return s;
    iterOrErr('set', x);
    chargeLength(x, th);
    try {
      ops.forEach(x, (v) => {
        ops.setAdd(s, v, th);
      });
    } catch (e) {
      if (e instanceof EvalErr) throw new EvalErr(`set: ${e.msg}`);
      throw e;
    }
    return s;
  },
  sorted(args, kwargs, _self, th) {
    const [it, key, reverse] = unpack('sorted', args, kwargs, ['iterable', 'key?', 'reverse?']);
    if (!ops.isIterable(it!)) throw new EvalErr(`sorted: for parameter iterable: got ${typeName(it!)}, want iterable`);
    const values = ops.toArray(it!, th);
    let keys: Value[] | null = null;
    if (key !== undefined) {
      if (!isCallable(key)) throw new EvalErr(`sorted: for parameter key: got ${typeName(key)}, want callable`);
      keys = values.map((v) => callValue(th, key, [v], null));
    }
    let rev = false;
    if (reverse !== undefined) {
      if (typeof reverse !== 'boolean') throw new EvalErr(`sorted: for parameter reverse: got ${typeName(reverse)}, want bool`);
      rev = reverse;
    }
    return new List(sortValues(values, keys, rev, th));
  },
  str(args, kwargs, _self, th) {
    noKw('str', kwargs);
    if (args.length !== 1) throw new EvalErr(`str: got ${args.length} arguments, want exactly 1`);
    const x = args[0]!;
    if (x instanceof Bytes) return utf8Transcode(x.s);
    return str(x, th);
  },
  tuple(args, kwargs, _self, th) {
    const [x] = positional('tuple', args, kwargs, 0, 1);
    if (x === undefined) return new Tuple([]);
    if (x instanceof Tuple) return x;
    iterOrErr('tuple', x);
    return new Tuple(ops.toArray(x, th));
  },
  type(args, kwargs) {
    noKw('type', kwargs);
    if (args.length !== 1) throw new EvalErr(`type: got ${args.length} arguments, want exactly 1`);
    return typeName(args[0]!);
  },
  zip(args, kwargs, _self, th) {
    noKw('zip', kwargs);
    const cols = args.map((a, i) => {
      if (!ops.isIterable(a)) throw new EvalErr(`zip: argument #${i + 1} is not iterable: ${typeName(a)}`);
      return ops.toArray(a, th);
    });
    if (cols.length === 0) return new List([]);
    const rows = Math.min(...cols.map((c) => c.length));
    th.checkElems(rows);
    const out: Value[] = [];
    for (let i = 0; i < rows; i++) out.push(new Tuple(cols.map((c) => c[i]!)));
    return new List(out);
  },
};

/** Replace invalid UTF-8 sequences by U+FFFD (bytes -> str, str -> bytes). */
export function utf8Transcode(s: string): string {
  let out = '';
  let ok = true;
  for (let i = 0; i < s.length; ) {
    const [r, w] = decodeRune(s, i);
    if (r === 0xfffd && w === 1) {
      ok = false;
      break;
    }
    i += w;
  }
  if (ok) return s;
  for (let i = 0; i < s.length; ) {
    const [r, w] = decodeRune(s, i);
    out += w === 1 && r === 0xfffd ? '\xef\xbf\xbd' : s.slice(i, i + w);
    i += w;
  }
  return out;
}

export function makeUniverse(): Map<string, Value> {
  const u = new Map<string, Value>();
  u.set('None', null);
  u.set('True', true);
  u.set('False', false);
  for (const [name, fn] of Object.entries(universeFns)) u.set(name, new Builtin(name, fn));
  return u;
}
