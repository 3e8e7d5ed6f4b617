// String formatting: the % operator (interpolate) and str.format, ported from
// starlark-go's eval.go interpolate and library.go string_format.

import * as I from './int.js';
import { formatFloat } from './float.js';
import { repr, typeName } from './repr.js';
import { decodeRune, decodeUTF8, runeToUTF8 } from './utf8.js';
import { dictGet } from './hash.js';
import { Dict, EvalErr, Float, Tuple, type Kwargs, type Value } from './types.js';
import type { Thread } from '../thread.js';

function numberToInt(v: Value): I.Int {
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  if (v instanceof Float) {
    if (v.v === Infinity || v.v === -Infinity) throw new EvalErr('cannot convert float infinity to integer');
    if (Number.isNaN(v.v)) throw new EvalErr('cannot convert float NaN to integer');
    return I.floatToInt(v.v);
  }
  throw new EvalErr(`cannot convert ${typeName(v)} to int`);
}

/** format % x, built under th's size limits */
export function interpolate(format: string, x: Value, th: Thread): string {
  // fast path: a single %s or %d with a scalar operand
  const j0 = format.indexOf('%');
  if (j0 >= 0 && format.indexOf('%', j0 + 1) < 0 && !(x instanceof Tuple) && !(x instanceof Dict)) {
    const c = format[j0 + 1];
    if ((c === 'd' && typeof x === 'number') || (c === 's' && (typeof x === 'string' || typeof x === 'number'))) {
      return format.slice(0, j0) + String(x) + format.slice(j0 + 2);
    }
  }
  let out = '';
  let index = 0;
  const nargs = x instanceof Tuple ? x.elems.length : 1;
  let size = 0;
  let i = 0;
  for (;;) {
    const j = format.indexOf('%', i);
    if (j < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, j);
    i = j + 1;
    if (format[i] === '%') {
      out += '%';
      i++;
      continue;
    }
    let arg: Value;
    if (format[i] === '(') {
      const k = format.indexOf(')', i + 1);
      if (k < 0) throw new EvalErr('incomplete format key');
      const key = format.slice(i + 1, k);
      if (!(x instanceof Dict)) throw new EvalErr('format requires a mapping');
      const v = dictGet(x, key);
      if (v === undefined) throw new EvalErr(`key not found: ${key}`);
      arg = v;
      i = k + 1;
    } else {
      if (index >= nargs) throw new EvalErr('not enough arguments for format string');
      arg = x instanceof Tuple ? x.elems[index]! : x;
    }
    if (i >= format.length) throw new EvalErr('incomplete format');
    const c = format[i]!;
    let s: string;
    switch (c) {
      case 's':
      case 'r':
        s = typeof arg === 'string' && c === 's' ? arg : repr(arg, th);
        break;
      case 'd':
      case 'i':
      case 'o':
      case 'x':
      case 'X': {
        let n: I.Int;
        try {
          n = numberToInt(arg);
        } catch (e) {
          throw new EvalErr(`%${c} format requires integer: ${(e as EvalErr).msg}`);
        }
        if (typeof n === 'number' && (c === 'd' || c === 'i')) s = String(n);
        else if (c === 'o') s = n.toString(8);
        else if (c === 'x') s = n.toString(16);
        else if (c === 'X') s = n.toString(16).toUpperCase();
        else s = n.toString();
        break;
      }
      case 'e':
      case 'f':
      case 'g':
      case 'E':
      case 'F':
      case 'G': {
        let f: number;
        if (arg instanceof Float) f = arg.v;
        else if (typeof arg === 'number' || typeof arg === 'bigint') f = I.intToFloat(arg);
        else throw new EvalErr(`%${c} format requires float, not ${typeName(arg)}`);
        s = formatFloat(f, c);
        break;
      }
      case 'c':
        if (typeof arg === 'number' || typeof arg === 'bigint') {
          if (typeof arg !== 'number' || arg < 0 || arg > 0x10ffff) throw new EvalErr(`%c format requires a valid Unicode code point, got ${arg}`);
          s = runeToUTF8(arg);
        } else if (typeof arg === 'string') {
          const [, w] = arg.length > 0 ? decodeRune(arg, 0) : [0, 0];
          if (arg.length === 0 || w !== arg.length) throw new EvalErr('%c format requires a single-character string');
          s = arg;
        } else throw new EvalErr(`%c format requires int or single-character string, not ${typeName(arg)}`);
        break;
      default:
        throw new EvalErr(`unknown conversion %${c}`);
    }
    size += s.length;
    if (size > 65536) {
      th.checkStrLen(size);
      th.chargeAlloc(s.length);
    }
    out += s;
    i++;
    index++;
  }
  if (index < nargs && !(x instanceof Dict)) throw new EvalErr('too many arguments for format string');
  return out;
}

/** str.format(*args, **kwargs), built under th's size limits */
export function format(fmt: string, args: Value[], kwargs: Kwargs, th: Thread): string {
  let auto = false,
    manual = false;
  const out: string[] = [];
  let index = 0;
  let f = fmt;
  for (;;) {
    let literal = f;
    const i = f.indexOf('{');
    if (i >= 0) literal = f.slice(0, i);
    for (;;) {
      const j = literal.indexOf('}');
      if (j < 0) {
        out.push(literal);
        break;
      }
      if (literal.length === j + 1 || literal[j + 1] !== '}') throw new EvalErr("format: single '}' in format");
      out.push(literal.slice(0, j + 1));
      literal = literal.slice(j + 2);
    }
    if (i < 0) break;
    if (f[i + 1] === '{') {
      out.push('{');
      f = f.slice(i + 2);
      continue;
    }
    f = f.slice(i + 1);
    const k = f.indexOf('}');
    if (k < 0) throw new EvalErr("format: unmatched '{' in format");
    let field = f.slice(0, k);
    f = f.slice(k + 1);
    let conv = 's',
      spec = '',
      name: string;
    const bang = field.indexOf('!');
    if (bang < 0) {
      const colon = field.indexOf(':');
      if (colon < 0) name = field;
      else {
        name = field.slice(0, colon);
        spec = field.slice(colon + 1);
      }
    } else {
      name = field.slice(0, bang);
      field = field.slice(bang + 1);
      const colon = field.indexOf(':');
      if (colon < 0) conv = field;
      else {
        conv = field.slice(0, colon);
        spec = field.slice(colon + 1);
      }
    }
    let arg: Value | undefined;
    if (name === '') {
      if (manual) throw new EvalErr('format: cannot switch from manual field specification to automatic field numbering');
      auto = true;
      if (index >= args.length) throw new EvalErr('format: tuple index out of range');
      arg = args[index++];
    } else if (/^[0-9]+$/.test(name)) {
      if (auto) throw new EvalErr('format: cannot switch from automatic field numbering to manual field specification');
      manual = true;
      const num = Number(name);
      if (num >= args.length) throw new EvalErr('format: tuple index out of range');
      arg = args[num];
    } else {
      const ident = decodeUTF8(name); // keyword names are identifiers (JS text)
      if (kwargs)
        for (const [kk, v] of kwargs)
          if (kk === ident) {
            arg = v;
            break;
          }
      if (arg === undefined) {
        if (name.includes('.')) throw new EvalErr(`format: attribute syntax x.y is not supported in replacement fields: ${name}`);
        if (name.includes('[')) throw new EvalErr(`format: element syntax a[i] is not supported in replacement fields: ${name}`);
        if (name.includes('{')) throw new EvalErr('format: nested replacement fields not supported');
        throw new EvalErr(`format: keyword ${name} not found`);
      }
    }
    if (spec !== '') throw new EvalErr(`format spec features not supported in replacement fields: ${spec}`);
    if (conv === 's') out.push(typeof arg === 'string' ? arg : repr(arg!, th));
    else if (conv === 'r') out.push(repr(arg!, th));
    else throw new EvalErr(`format: unknown conversion ${JSON.stringify(conv)}`);
  }
  const r = out.join('');
  if (r.length > 65536) {
    th.checkStrLen(r.length);
    th.chargeAlloc(r.length);
  }
  return r;
}
