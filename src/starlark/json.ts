// The predeclared `json` module (encode, encode_indent, decode, indent),
// following starlark-go's lib/json.

import { positional, unpack, wantStr } from './builtins/args.js';
import { attrNames, getAttr } from './attrs.js';
import { floatStr } from './values/float.js';
import * as I from './values/int.js';
import { forEach, isIterable, dictSet } from './values/ops.js';
import { quote as starQuote, typeName } from './values/repr.js';
import { decodeUTF8, encodeUTF8 } from './values/utf8.js';
import { DEFAULT_SIZE_LIMITS } from './values/limits.js';
import { Builtin, Dict, EvalErr, Float, List, Module, Struct, type Kwargs, type SValue, type Value } from './values/types.js';
import type { Thread } from './thread.js';

/** JSON string literal of a binary string (Go's strconv.Quote / json.Marshal style). */
function quote(s: string): string {
  // JSON.stringify escapes like json.Marshal except for <, >, & which Go escapes as \u003c etc.
  const t = JSON.stringify(decodeUTF8(s)).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  return encodeUTF8(t);
}

/**
 * JSON text of x, capped at the thread's string size limit (the default limit
 * when the host calls it outside a run).
 */
export function encodeJSON(x: Value, th: Thread | null = null): string {
  const path: SValue[] = [];
  const parts: string[] = [];
  /** parts flushed every 1024 values into a rope (O(1) concatenation): no join of millions at the end */
  let text = '';
  const maxBytes = th === null ? DEFAULT_SIZE_LIMITS.maxStringBytes : th.maxStringBytes;
  let size = 0;
  /** values written since the last charge (one step per 64 values, so the clock is consulted) */
  let uncharged = 0;
  const emit = (v: Value): void => {
    // one byte at least per value: a list of many references to one big list is bounded too
    size++;
    if (++uncharged === 1024) {
      if (size > maxBytes) throw new EvalErr(`string size limit exceeded (${size} > ${maxBytes} bytes)`, 'size');
      th?.chargeSteps(uncharged);
      uncharged = 0;
      text += parts.join('');
      parts.length = 0;
    }
    if (v !== null && typeof v === 'object') {
      if (path.includes(v)) throw new EvalErr('cycle in JSON structure');
      path.push(v);
    }
    try {
      if (v === null) parts.push('null');
      else if (v === true) parts.push('true');
      else if (v === false) parts.push('false');
      else if (typeof v === 'number' || typeof v === 'bigint') {
        const digits = String(v);
        size += digits.length;
        parts.push(digits);
      } else if (typeof v === 'string') {
        size += v.length;
        if (size > 65536 && size > maxBytes) throw new EvalErr(`string size limit exceeded (${size} > ${maxBytes} bytes)`, 'size');
        if (th !== null && v.length > 1024) th.chargeSteps(v.length >> 4);
        parts.push(quote(v));
      } else if (v instanceof Float) {
        if (!Number.isFinite(v.v)) throw new EvalErr(`cannot encode non-finite float ${floatStr(v.v)}`);
        parts.push(floatStr(v.v));
      } else if (v instanceof Dict) {
        const items: [string, Value][] = [];
        for (const [hk, val] of v.ht.vals) {
          const k = v.ht.keyOf(hk);
          if (typeof k !== 'string') throw new EvalErr(`dict has ${typeName(k)} key, want string`);
          items.push([k, val]);
        }
        items.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        parts.push('{');
        items.forEach(([k, val], i) => {
          if (i > 0) parts.push(',');
          parts.push(quote(k), ':');
          try {
            emit(val);
          } catch (e) {
            if (e instanceof EvalErr) throw new EvalErr(`in dict key ${starQuote(k)}: ${e.msg}`, e.kind);
            throw e;
          }
        });
        parts.push('}');
      } else if (isIterable(v)) {
        parts.push('[');
        let i = 0;
        forEach(v, (el) => {
          if (i > 0) parts.push(',');
          try {
            emit(el);
          } catch (e) {
            if (e instanceof EvalErr) throw new EvalErr(`at ${typeName(v)} index ${i}: ${e.msg}`, e.kind);
            throw e;
          }
          i++;
        });
        parts.push(']');
      } else if (v instanceof Struct || v instanceof Module) {
        parts.push('{');
        attrNames(v).forEach((name, i) => {
          if (i > 0) parts.push(',');
          parts.push(quote(encodeUTF8(name)), ':');
          try {
            emit(getAttr(v, name));
          } catch (e) {
            if (e instanceof EvalErr) throw new EvalErr(`in field .${name}: ${e.msg}`, e.kind);
            throw e;
          }
        });
        parts.push('}');
      } else {
        throw new EvalErr(`cannot encode ${typeName(v)} as JSON`);
      }
    } finally {
      if (v !== null && typeof v === 'object') path.pop();
    }
  };
  emit(x);
  return text + parts.join('');
}

class Failure {
  constructor(public msg: string) {}
}

function goQuoteByte(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '\\') return "'\\\\'";
  const code = c.charCodeAt(0);
  if (code < 0x20 || code >= 0x7f) return `'\\x${code.toString(16).padStart(2, '0')}'`;
  return `'${c}'`;
}

/**
 * The value of JSON text s. In a run, objects grow and large ints are charged
 * under th's limits; the host (th null) relies on the int size cap alone.
 */
export function decodeJSON(s: string, th: Thread | null = null): Value {
  const d = new JSONDecoder(s, th);
  try {
    const v = d.value();
    if (d.skipSpace()) d.fail(`unexpected character ${goQuoteByte(s[d.i]!)} after value`);
    return v;
  } catch (e) {
    if (e instanceof Failure) throw new EvalErr(`json.decode: at offset ${d.i}, ${e.msg}`);
    throw e;
  }
}

/** A recursive-descent JSON decoder over a binary string; i is the offset reached (for messages). */
class JSONDecoder {
  i = 0;
  /** values decoded since the last charge to th (one step per 64, so the clock is consulted) */
  uncharged = 0;
  constructor(
    readonly s: string,
    readonly th: Thread | null,
  ) {}

  fail(msg: string): never {
    throw new Failure(msg);
  }

  /** Skip white space; false at the end of the input. */
  skipSpace(): boolean {
    const s = this.s;
    for (; this.i < s.length; this.i++) {
      const c = s[this.i];
      if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') return true;
    }
    return false;
  }

  /** The next non-space character (not consumed). */
  next(): string {
    return this.skipSpace() ? this.s[this.i]! : this.fail('unexpected end of file');
  }

  value(): Value {
    if (++this.uncharged === 1024 && this.th !== null) {
      this.th.chargeSteps(this.uncharged);
      this.uncharged = 0;
    }
    const s = this.s;
    const b = this.next();
    switch (b) {
      case '"':
        return this.string();
      case 'n':
        if (s.startsWith('null', this.i)) {
          this.i += 4;
          return null;
        }
        break;
      case 't':
        if (s.startsWith('true', this.i)) {
          this.i += 4;
          return true;
        }
        break;
      case 'f':
        if (s.startsWith('false', this.i)) {
          this.i += 5;
          return false;
        }
        break;
      case '[':
        return this.array();
      case '{':
        return this.object();
      default:
        if (isdigit(b) || b === '-') return this.number();
    }
    return this.fail(`unexpected character ${goQuoteByte(b)}`);
  }

  string(): string {
    const s = this.s;
    let safe = true,
      closed = false;
    let j = this.i + 1;
    for (; j < s.length; j++) {
      const c = s.charCodeAt(j);
      if (c === 92) {
        safe = false;
        j++;
      } else if (c === 34) {
        closed = true;
        j++;
        break;
      } else if (c >= 0x80 || c < 0x20) safe = false;
    }
    if (!closed) this.fail('unclosed string literal');
    const r = s.slice(this.i, j);
    this.i = j;
    if (safe) return r.slice(1, -1);
    try {
      return encodeUTF8(JSON.parse(decodeUTF8(r)) as string);
    } catch (e) {
      const m = /Bad escaped character|escape/i.test((e as Error).message) ? 'invalid escape sequence in string' : (e as Error).message;
      return this.fail(m);
    }
  }

  array(): List {
    const elems: Value[] = [];
    this.i++;
    if (this.next() !== ']') {
      for (;;) {
        elems.push(this.value());
        const c = this.next();
        if (c !== ',') {
          if (c !== ']') this.fail(`got ${goQuoteByte(c)}, want ',' or ']'`);
          break;
        }
        this.i++;
      }
    }
    this.i++;
    return new List(elems);
  }

  object(): Dict {
    const d = new Dict();
    this.i++;
    if (this.next() !== '}') {
      for (;;) {
        const key = this.value();
        if (typeof key !== 'string') this.fail(`got ${typeName(key)} for object key, want string`);
        let c = this.next();
        if (c !== ':') this.fail(`after object key, got ${goQuoteByte(c)}, want ':' `);
        this.i++;
        const value = this.value();
        dictSet(d, key, value, this.th);
        c = this.next();
        if (c !== ',') {
          if (c !== '}') this.fail(`in object, got ${goQuoteByte(c)}, want ',' or '}'`);
          break;
        }
        this.i++;
      }
    }
    this.i++;
    return d;
  }

  number(): Value {
    const s = this.s;
    let isFloat = false;
    let j: number;
    for (j = this.i + 1; j < s.length; j++) {
      const c = s[j]!;
      if (isdigit(c)) continue;
      if (c === '.' || c === 'e' || c === 'E' || c === '+' || c === '-') isFloat = true;
      else break;
    }
    const num = s.slice(this.i, j);
    this.i = j;
    const digits = num[0] === '-' ? num.slice(1) : num;
    if (digits === '' || (digits[0] === '0' && digits.length > 1 && isdigit(digits[1]))) this.fail(`invalid number: ${num}`);
    if (isFloat) {
      if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(num)) this.fail(`invalid number: ${num}`);
      return new Float(Number(num));
    }
    if (!/^-?\d+$/.test(num)) this.fail(`invalid number: ${num}`);
    I.checkDigits(num.length);
    const n = I.norm(BigInt(num));
    return this.th === null ? n : I.charged(n, this.th);
  }
}

function isdigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/**
 * Re-indent JSON text like Go's json.Indent (tokens untouched, whitespace
 * replaced). The output is capped at the string size limit (indentation grows
 * with depth, so a short deeply nested text can indent to gigabytes) and its
 * writing is charged to th.
 */
export function indentJSON(src: string, prefix: string, indent: string, th: Thread | null = null): string {
  const maxBytes = th === null ? DEFAULT_SIZE_LIMITS.maxStringBytes : th.maxStringBytes;
  if (th !== null && src.length > 1024) th.chargeSteps(src.length >> 4); // the validation below
  // validate first
  try {
    JSON.parse(decodeUTF8(src));
  } catch (e) {
    const m = /Unexpected token '?(.)'?|Unexpected token (.)/.exec((e as Error).message);
    if (m) throw new EvalErr(`invalid character '${m[1] ?? m[2]}' looking for beginning of value`);
    throw new EvalErr(`unexpected end of JSON input`);
  }
  let out = '';
  let depth = 0;
  let needIndent = false;
  /** bytes of indentation written since the last charge */
  let uncharged = 0;
  const newline = () => {
    const width = 1 + prefix.length + indent.length * depth;
    if (out.length + width > maxBytes) throw new EvalErr(`string size limit exceeded (more than ${maxBytes} bytes)`, 'size');
    uncharged += width;
    if (uncharged > 65536) {
      th?.chargeSteps(uncharged >> 4);
      uncharged = 0;
    }
    out += '\n' + prefix + indent.repeat(depth);
  };
  for (let i = 0; i < src.length; i++) {
    // this loop costs tens of nanoseconds a byte: 4 units each, so the clock is consulted every few KiB
    if ((i & 4095) === 4095) th?.chargeSteps(4096 * 4);
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    if (needIndent && c !== ']' && c !== '}') {
      needIndent = false;
      depth++;
      newline();
    }
    if (c === '"') {
      let j = i + 1;
      for (; j < src.length; j++) {
        if (src[j] === '\\') j++;
        else if (src[j] === '"') break;
      }
      out += src.slice(i, j + 1);
      i = j;
      continue;
    }
    switch (c) {
      case '{':
      case '[':
        out += c;
        needIndent = true;
        break;
      case ',':
        out += c;
        newline();
        break;
      case ':':
        out += ': ';
        break;
      case '}':
      case ']':
        if (needIndent) {
          needIndent = false;
          out += c;
        } else {
          depth--;
          newline();
          out += c;
        }
        break;
      default:
        out += c;
    }
  }
  return out;
}

function mk(name: string, fn: (args: Value[], kwargs: Kwargs, th: Thread) => Value): Builtin {
  return new Builtin(name, (args, kwargs, _self, th) => fn(args, kwargs, th));
}

function wrap<T>(name: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof EvalErr) throw new EvalErr(`${name}: ${e.msg}`, e.kind);
    throw e;
  }
}

export function makeJSONModule(): Module {
  const m = new Map<string, Value>();
  m.set(
    'encode',
    mk('json.encode', (args, kwargs, th) => {
      const [x] = positional('json.encode', args, kwargs, 1, 1);
      return wrap('json.encode', () => encodeJSON(x!, th));
    }),
  );
  m.set(
    'encode_indent',
    mk('json.encode_indent', (args, kwargs, th) => {
      const [prefix, indent] = unpack('json.encode_indent', [], kwargs, ['prefix?', 'indent?']);
      const [x] = positional('json.encode_indent', args, null, 1, 1);
      const p = prefix === undefined ? '' : wantStr('json.encode_indent', 'prefix', prefix);
      const ind = indent === undefined ? '\t' : wantStr('json.encode_indent', 'indent', indent);
      return wrap('json.encode_indent', () => indentJSON(encodeJSON(x!, th), p, ind, th));
    }),
  );
  m.set(
    'decode',
    mk('json.decode', (args, kwargs, th) => {
      const [x, dflt] = unpack('json.decode', args, kwargs, ['x', 'default?']);
      if (args.length < 1) throw new EvalErr('json.decode: unexpected keyword argument x');
      const s = wantStr('json.decode', 'x', x!);
      try {
        return decodeJSON(s, th);
      } catch (e) {
        if (e instanceof EvalErr && dflt !== undefined) return dflt;
        throw e;
      }
    }),
  );
  m.set(
    'indent',
    mk('json.indent', (args, kwargs, th) => {
      const [prefix, indent] = unpack('json.indent', [], kwargs, ['prefix?', 'indent?']);
      const [x] = positional('json.indent', args, null, 1, 1);
      const s = wantStr('json.indent', 1, x!);
      const p = prefix === undefined ? '' : wantStr('json.indent', 'prefix', prefix);
      const ind = indent === undefined ? '\t' : wantStr('json.indent', 'indent', indent);
      return wrap('json.indent', () => indentJSON(s, p, ind, th));
    }),
  );
  return new Module('json', m);
}
