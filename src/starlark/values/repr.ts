// str() and repr() of values, following starlark-go's writeValue.

import { decodeRune, runeToUTF8 } from './utf8.js';
import { floatStr } from './float.js';
import { Builtin, Bytes, Dict, EvalErr, Float, Func, List, Module, RangeValue, SSet, Struct, Tuple, type SValue, type Value } from './types.js';
import { DEFAULT_SIZE_LIMITS } from './limits.js';
import type { Thread } from '../thread.js';

const HEX = '0123456789abcdef';
const printRe = /[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

/** Go's syntax.Quote over a binary string: a double-quoted literal. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** Quote s; escaping a long string is charged to th, if any. */
export function quote(s: string, isBytes = false, th: Thread | null = null): string {
  if (s.length > 16) {
    if (PLAIN.test(s)) return (isBytes ? 'b"' : '"') + s + '"';
    if (th !== null) th.chargeSteps(s.length);
  }
  let out = isBytes ? 'b"' : '"';
  for (let i = 0; i < s.length; ) {
    const b = s.charCodeAt(i);
    if (b >= 0x20 && b < 0x7f) {
      if (b === 34 || b === 92) out += '\\';
      out += s[i];
      i++;
      continue;
    }
    let r: number, w: number;
    if (b < 0x80) {
      r = b;
      w = 1;
    } else [r, w] = decodeRune(s, i);
    if (w === 1 && r === 0xfffd) {
      out += '\\x' + HEX[b >> 4] + HEX[b & 15];
      i++;
      continue;
    }
    i += w;
    if (r >= 0x80 && printRe.test(String.fromCodePoint(r))) {
      out += runeToUTF8(r);
      continue;
    }
    switch (r) {
      case 7:
        out += '\\a';
        break;
      case 8:
        out += '\\b';
        break;
      case 12:
        out += '\\f';
        break;
      case 10:
        out += '\\n';
        break;
      case 13:
        out += '\\r';
        break;
      case 9:
        out += '\\t';
        break;
      case 11:
        out += '\\v';
        break;
      default:
        if (r < 0x20 || r === 0x7f) out += '\\x' + HEX[r >> 4] + HEX[r & 15];
        else if (r < 0x10000) out += '\\u' + r.toString(16).padStart(4, '0');
        else out += '\\U' + r.toString(16).padStart(8, '0');
    }
  }
  return out + '"';
}

export function typeName(v: Value): string {
  if (v === null) return 'NoneType';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'number':
    case 'bigint':
      return 'int';
    case 'string':
      return 'string';
    default:
      return (v as SValue).type;
  }
}

/**
 * str(x): strings unquoted, everything else as repr. With a thread, the
 * output is capped at its string size limit and long escapes are charged to
 * it; without one (host code, error messages), at the default limit.
 */
export function str(v: Value, th: Thread | null = null): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return repr(v, th);
}

/** repr(x), capped and charged like str. */
export function repr(v: Value, th: Thread | null = null): string {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return quote(v, false, th);
  const p = new Printer(th);
  writeValue(p, v);
  return p.text + p.out.join('');
}

/**
 * One repr traversal: the output parts, the containers being printed (to
 * print cycles as ...), and the bytes written so far. Output is capped at the
 * string size limit: a list holding many references to one big list would
 * otherwise print (and allocate) without bound.
 */
class Printer {
  /** parts not yet flushed into text */
  readonly out: string[] = [];
  /**
   * What was written before out, flushed every 1024 parts: concatenation makes a rope in O(1), so
   * no single join of millions of parts runs at the end, uninterruptible.
   */
  text = '';
  readonly path: SValue[] = [];
  readonly max: number;
  /** bytes in out[0 .. counted), plus long parts counted when pushed */
  written = 0;
  counted = 0;
  constructor(readonly th: Thread | null) {
    this.max = th === null ? DEFAULT_SIZE_LIMITS.maxStringBytes : th.maxStringBytes;
  }
  tooLong(): never {
    throw new EvalErr(`string size limit exceeded (printing a value longer than ${this.max} bytes)`, 'size');
  }
  /** push a quoted string or bytes value, counting it at once when long */
  pushQuoted(s: string, isBytes: boolean): void {
    // 1000 references to one 1 MB string must not print 1 GB first
    if (s.length > 64 && this.written + s.length > this.max) this.tooLong();
    const q = quote(s, isBytes, this.th);
    this.out.push(q);
    if (q.length > 64 && (this.written += q.length) > this.max) this.tooLong();
  }
}

function writeValue(p: Printer, x: Value): void {
  const out = p.out;
  if (out.length - p.counted >= 1024) {
    for (let i = p.counted; i < out.length; i++) {
      const n = out[i]!.length;
      if (n <= 64) p.written += n;
    } // longer ones counted when pushed
    if (p.written > p.max) p.tooLong();
    p.text += out.join('');
    out.length = 0;
    p.counted = 0;
    // the work of printing, so that the clock is consulted while a large value prints
    if (p.th !== null) p.th.chargeSteps(1024);
  }
  writeValue1(p, x);
}

function writeValue1(p: Printer, x: Value): void {
  const { out, path } = p;
  if (x === null) {
    out.push('None');
    return;
  }
  switch (typeof x) {
    case 'boolean':
      out.push(x ? 'True' : 'False');
      return;
    case 'number':
      out.push(String(x));
      return;
    case 'bigint': {
      const digits = x.toString();
      // converting a big int to decimal is superlinear in its size
      if (p.th !== null && digits.length > 1024) p.th.chargeSteps(digits.length);
      out.push(digits);
      return;
    }
    case 'string':
      p.pushQuoted(x, false);
      return;
  }
  if (x instanceof List) {
    out.push('[');
    if (path.includes(x)) out.push('...');
    else {
      path.push(x);
      for (let i = 0; i < x.elems.length; i++) {
        if (i > 0) out.push(', ');
        writeValue(p, x.elems[i]!);
      }
      path.pop();
    }
    out.push(']');
  } else if (x instanceof Tuple) {
    out.push('(');
    for (let i = 0; i < x.elems.length; i++) {
      if (i > 0) out.push(', ');
      writeValue(p, x.elems[i]!);
    }
    if (x.elems.length === 1) out.push(',');
    out.push(')');
  } else if (x instanceof Dict) {
    out.push('{');
    if (path.includes(x)) out.push('...');
    else {
      let sep = '';
      for (const [hk, v] of x.ht.vals) {
        out.push(sep);
        writeValue(p, x.ht.keyOf(hk));
        out.push(': ');
        path.push(x);
        writeValue(p, v);
        path.pop();
        sep = ', ';
      }
    }
    out.push('}');
  } else if (x instanceof SSet) {
    out.push('set([');
    let sep = '';
    for (const hk of x.ht.vals.keys()) {
      out.push(sep);
      writeValue(p, x.ht.keyOf(hk));
      sep = ', ';
    }
    out.push('])');
  } else if (x instanceof Float) {
    out.push(floatStr(x.v));
  } else if (x instanceof Bytes) {
    p.pushQuoted(x.s, true);
  } else if (x instanceof Func) {
    out.push(`<function ${x.name}>`);
  } else if (x instanceof Builtin) {
    if (x.recv !== undefined) out.push(`<built-in method ${x.name} of ${typeName(x.recv)} value>`);
    else out.push(`<built-in function ${x.name}>`);
  } else if (x instanceof Module) {
    out.push(`<module ${quote(x.name)}>`);
  } else if (x instanceof Struct) {
    // str(ctor), within this traversal's budget
    if (typeof x.ctor === 'string') out.push(x.ctor);
    else writeValue(p, x.ctor);
    out.push('(');
    let sep = '';
    for (const k of [...x.fields.keys()].sort()) {
      out.push(sep, k, ' = ');
      writeValue(p, x.fields.get(k)!);
      sep = ', ';
    }
    out.push(')');
  } else if (x instanceof RangeValue) {
    if (x.step !== 1) out.push(`range(${x.start}, ${x.stop}, ${x.step})`);
    else if (x.start !== 0) out.push(`range(${x.start}, ${x.stop})`);
    else out.push(`range(${x.stop})`);
  } else {
    const s = (x as { toString(): string }).toString();
    out.push(s === '[object Object]' ? `<${x.type}>` : s);
  }
}
