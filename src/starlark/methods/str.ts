// Methods of string values (spec: "String methods"). Strings are binary
// (UTF-8 byte) strings; operations that depend on Unicode character classes
// decode to JS text first, but only when the string is not pure ASCII.

import { registerMethods, type Method } from '../attrs.js';
import { positional, paramErr, wantInt } from '../builtins/args.js';
import { format } from '../values/format.js';
import * as ops from '../values/ops.js';
import { quote, typeName } from '../values/repr.js';
import { decodeRune, decodeUTF8, encodeUTF8, isASCII, runeToUTF8 } from '../values/utf8.js';
import { type Bytes, EvalErr, List, SValue, Tuple, type Kwargs, type Value } from '../values/types.js';
import type { Thread } from '../thread.js';

/** The iterable views returned by elems(), codepoints(), ... */
export class StringIterable extends SValue {
  constructor(
    public readonly s: string,
    public readonly kind: 'elems' | 'elem_ords' | 'codepoints' | 'codepoint_ords',
    public readonly isBytes = false,
  ) {
    super();
  }
  get type() {
    return (this.isBytes ? 'bytes.' : 'string.') + (this.kind === 'elem_ords' ? 'elems' : this.kind === 'codepoint_ords' ? 'codepoints' : this.kind);
  }
  /** elems()[i] and elem_ords()[i] */
  get len(): number {
    return this.kind === 'elems' || this.kind === 'elem_ords' ? this.s.length : -1;
  }
  index(i: number): Value {
    if (this.kind === 'elem_ords' || this.isBytes) return this.s.charCodeAt(i);
    return this.s[i]!;
  }
  *iterate(): Iterator<Value> {
    const s = this.s;
    switch (this.kind) {
      case 'elems':
        if (this.isBytes) {
          for (let i = 0; i < s.length; i++) yield s.charCodeAt(i);
        } else for (let i = 0; i < s.length; i++) yield s[i]!;
        return;
      case 'elem_ords':
        for (let i = 0; i < s.length; i++) yield s.charCodeAt(i);
        return;
      case 'codepoints':
        for (let i = 0; i < s.length; ) {
          const [r, w] = decodeRune(s, i);
          yield runeToUTF8(r);
          i += w;
        }
        return;
      case 'codepoint_ords':
        for (let i = 0; i < s.length; ) {
          const [r, w] = decodeRune(s, i);
          yield r;
          i += w;
        }
    }
  }
  override toString(): string {
    return `${quote(this.s, this.isBytes)}.${this.kind}()`;
  }
}

const SPACE = /^[\t\n\v\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/;
const isSpaceRune = (r: number) => SPACE.test(String.fromCodePoint(r));

const NO_ARGS: Value[] = [];

/** s.strip(): white space trimmed from both ends (compiled calls use it directly, method-calls.ts). */
export function stripSpace(s: string): string {
  return stripImpl(s, 'strip', NO_ARGS, null);
}

/** s.lower() */
export function lowerText(s: string): string {
  return isASCII(s) ? s.toLowerCase() : encodeUTF8(decodeUTF8(s).toLowerCase());
}

/** s.upper() */
export function upperText(s: string): string {
  return isASCII(s) ? s.toUpperCase() : encodeUTF8(decodeUTF8(s).toUpperCase());
}

/** Apply a JS text transformation, decoding only non-ASCII strings. */
function viaText(s: string, f: (t: string) => string): string {
  if (isASCII(s)) return f(s);
  return encodeUTF8(f(decodeUTF8(s)));
}

function runes(s: string): string[] {
  // split a binary string into its UTF-8 sequences (invalid bytes alone)
  const out: string[] = [];
  for (let i = 0; i < s.length; ) {
    const [, w] = decodeRune(s, i);
    out.push(s.slice(i, i + w));
    i += w;
  }
  return out;
}

function cpOf(r: string): number {
  return decodeRune(r, 0)[0];
}

// (helpers are module-level functions, not closures: hot paths should not allocate functions)
function clampIndex(fname: string, v: Value | undefined, dflt: number, what: string, n: number): number {
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'number')
    throw new EvalErr(`${fname}: invalid ${what} index: ${typeof v === 'bigint' ? `${v} out of range` : `got ${typeName(v)}, want int`}`);
  let r = v < 0 ? v + n : v;
  if (r < 0) r = 0;
  else if (r > n) r = n;
  return r;
}

function indices(fname: string, start: Value | undefined, end: Value | undefined, n: number): [number, number] {
  return [clampIndex(fname, start, 0, 'start', n), clampIndex(fname, end, n, 'end', n)];
}

function isAsciiSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

function strArg(fname: string, i: number, v: Value): string {
  if (typeof v !== 'string') throw paramErr(fname, i, `got ${typeName(v)}, want string`);
  return v;
}

function find(s: string, name: string, args: Value[], kwargs: Kwargs, allowError: boolean, last: boolean): number {
  const [subv, st, en] = positional(name, args, kwargs, 1, 3);
  const sub = strArg(name, 1, subv!);
  const [start, end] = indices(name, st, en, s.length);
  const slice = start < end ? s.slice(start, end) : '';
  const i = last ? slice.lastIndexOf(sub) : slice.indexOf(sub);
  if (i < 0) {
    if (!allowError) throw new EvalErr(`${name}: substring not found`);
    return -1;
  }
  return i + start;
}

function stripImpl(s: string, name: string, args: Value[], kwargs: Kwargs): string {
  const cv = args.length === 0 && kwargs === null ? undefined : positional(name, args, kwargs, 0, 1)[0];
  const chars = cv === undefined || cv === null ? '' : strArg(name, 1, cv);
  const left = name !== 'rstrip',
    right = name !== 'lstrip';
  if (chars === '') {
    if (isASCII(s)) {
      let i = 0,
        j = s.length;
      if (left) while (i < j && isAsciiSpace(s.charCodeAt(i))) i++;
      if (right) while (j > i && isAsciiSpace(s.charCodeAt(j - 1))) j--;
      return s.slice(i, j);
    }
    const rs = runes(s);
    let i = 0,
      j = rs.length;
    if (left) while (i < j && isSpaceRune(cpOf(rs[i]!))) i++;
    if (right) while (j > i && isSpaceRune(cpOf(rs[j - 1]!))) j--;
    return rs.slice(i, j).join('');
  }
  const set = new Set(runes(chars));
  const rs = runes(s);
  let i = 0,
    j = rs.length;
  if (left) while (i < j && set.has(rs[i]!)) i++;
  if (right) while (j > i && set.has(rs[j - 1]!)) j--;
  return rs.slice(i, j).join('');
}

function fields(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inField = false;
  for (const r of isASCII(s) ? s : runes(s)) {
    if (isSpaceRune(cpOf(r))) {
      if (inField) {
        out.push(cur);
        cur = '';
        inField = false;
      }
    } else {
      cur += r;
      inField = true;
    }
  }
  if (inField) out.push(cur);
  return out;
}

function splitImpl(s: string, name: string, args: Value[], kwargs: Kwargs, th: Thread): Value {
  const [sepv, maxv] = positional(name, args, kwargs, 0, 2);
  const maxsplit = maxv === undefined ? -1 : wantInt(name, 2, maxv);
  let res: string[];
  if (sepv === undefined || sepv === null) {
    if (maxsplit < 0) res = fields(s);
    else if (name === 'split') {
      // split on whitespace at most maxsplit times, from the left
      res = [];
      const rs = runes(s);
      let i = 0;
      while (i < rs.length) {
        while (i < rs.length && isSpaceRune(cpOf(rs[i]!))) i++;
        if (i >= rs.length) break;
        if (res.length === maxsplit) {
          res.push(rs.slice(i).join(''));
          break;
        }
        let j = i;
        while (j < rs.length && !isSpaceRune(cpOf(rs[j]!))) j++;
        res.push(rs.slice(i, j).join(''));
        i = j;
      }
    } else {
      res = [];
      const rs = runes(s);
      let j = rs.length;
      while (j > 0) {
        while (j > 0 && isSpaceRune(cpOf(rs[j - 1]!))) j--;
        if (j <= 0) break;
        if (res.length === maxsplit) {
          res.push(rs.slice(0, j).join(''));
          break;
        }
        let i = j;
        while (i > 0 && !isSpaceRune(cpOf(rs[i - 1]!))) i--;
        res.push(rs.slice(i, j).join(''));
        j = i;
      }
      res.reverse();
    }
  } else if (typeof sepv === 'string') {
    if (sepv === '') throw new EvalErr('split: empty separator');
    if (s.length > 1024) th.chargeSteps(s.length >> 4);
    res = s.split(sepv);
    if (maxsplit >= 0 && res.length > maxsplit + 1) {
      if (name === 'split') res = [...res.slice(0, maxsplit), res.slice(maxsplit).join(sepv)];
      else {
        const excess = res.length - maxsplit;
        res = [res.slice(0, excess).join(sepv), ...res.slice(excess)];
      }
    }
  } else {
    throw new EvalErr(`split: got ${typeName(sepv)} for separator, want string`);
  }
  if (res.length > 1024) th.checkElems(res.length);
  return new List(res);
}

function startsWith(s: string, name: string, args: Value[], kwargs: Kwargs): boolean {
  if (args.length === 1 && kwargs === null && typeof args[0] === 'string') {
    return name === 'startswith' ? s.startsWith(args[0]) : s.endsWith(args[0]);
  }
  const [x, st, en] = positional(name, args, kwargs, 1, 3);
  const [start, end0] = indices(name, st, en, s.length);
  const end = end0 < start ? start : end0;
  const sub = s.slice(start, end);
  const f = name === 'startswith' ? (p: string) => sub.startsWith(p) : (p: string) => sub.endsWith(p);
  if (x instanceof Tuple) {
    for (let i = 0; i < x.elems.length; i++) {
      const p = x.elems[i]!;
      if (typeof p !== 'string') throw new EvalErr(`${name}: want string, got ${typeName(p)}, for element ${i}`);
      if (f(p)) return true;
    }
    return false;
  }
  if (typeof x === 'string') return f(x);
  throw new EvalErr(`${name}: got ${typeName(x!)}, want string or tuple of string`);
}

const isUpperRune = (c: string) => /\p{Lu}|\p{Lt}/u.test(c);
const isLowerRune = (c: string) => /\p{Ll}/u.test(c);
/** Unicode title case (differs from upper case for the digraphs ǅ ǈ ǋ ǲ). */
function toTitle(c: string): string {
  const cp = c.codePointAt(0)!;
  if (cp >= 0x1c4 && cp <= 0x1cc) return String.fromCodePoint(0x1c5 + 3 * Math.floor((cp - 0x1c4) / 3));
  if (cp >= 0x1f1 && cp <= 0x1f3) return '\u01f2';
  return c.toUpperCase();
}
const isCased = (c: string) => c.toLowerCase() !== c.toUpperCase();

function textChars(s: string): string[] {
  return [...decodeUTF8(s)];
}

function isPred(s: string, name: string, args: Value[], kwargs: Kwargs, pred: (c: string) => boolean): boolean {
  positional(name, args, kwargs, 0, 0);
  if (s === '') return false;
  for (const c of textChars(s)) if (!pred(c)) return false;
  return true;
}

const strMethods: Record<string, Method> = {
  capitalize(s: string, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    return viaText(s, (t) => {
      const cs = [...t];
      return cs.length ? toTitle(cs[0]!) + cs.slice(1).join('').toLowerCase() : '';
    });
  },
  codepoint_ords(s: string, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    return new StringIterable(s, 'codepoint_ords');
  },
  codepoints(s: string, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    return new StringIterable(s, 'codepoints');
  },
  count(s: string, args, kwargs, name) {
    const [subv, st, en] = positional(name, args, kwargs, 1, 3);
    const sub = strArg(name, 1, subv!);
    const [start, end] = indices(name, st, en, s.length);
    const slice = start < end ? s.slice(start, end) : '';
    if (sub === '') return runes(slice).length + 1;
    return slice.split(sub).length - 1;
  },
  elem_ords(s: string, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    return new StringIterable(s, 'elem_ords');
  },
  elems(s: string, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    return new StringIterable(s, 'elems');
  },
  endswith(s: string, args, kwargs, name) {
    return startsWith(s, name, args, kwargs);
  },
  find(s: string, args, kwargs, name) {
    return find(s, name, args, kwargs, true, false);
  },
  format(s: string, args, kwargs, _name, th) {
    return format(s, args, kwargs, th);
  },
  index(s: string, args, kwargs, name) {
    return find(s, name, args, kwargs, false, false);
  },
  isalnum(s: string, args, kwargs, name) {
    return isPred(s, name, args, kwargs, (c) => /[\p{L}\p{N}]/u.test(c));
  },
  isalpha(s: string, args, kwargs, name) {
    return isPred(s, name, args, kwargs, (c) => /\p{L}/u.test(c));
  },
  isdigit(s: string, args, kwargs, name) {
    return isPred(s, name, args, kwargs, (c) => /\p{Nd}/u.test(c));
  },
  islower(s: string, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    const t = decodeUTF8(s);
    return t.toLowerCase() === t && [...t].some(isCased);
  },
  isspace(s: string, args, kwargs, name) {
    return isPred(s, name, args, kwargs, (c) => isSpaceRune(c.codePointAt(0)!));
  },
  istitle(s: string, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    let cased = false,
      prevCased = false;
    for (const c of textChars(s)) {
      if ((c >= 'A' && c <= 'Z') || /\p{Lt}/u.test(c)) {
        if (prevCased) return false;
        prevCased = true;
        cased = true;
      } else if (isLowerRune(c)) {
        if (!prevCased) return false;
        prevCased = true;
        cased = true;
      } else if (isUpperRune(c)) {
        return false;
      } else prevCased = false;
    }
    return cased;
  },
  isupper(s: string, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    const t = decodeUTF8(s);
    return t.toUpperCase() === t && [...t].some(isCased);
  },
  join(s: string, args, kwargs, name, th) {
    const [it] = positional(name, args, kwargs, 1, 1);
    if (!ops.isIterable(it!)) throw paramErr(name, 1, `got ${typeName(it!)}, want iterable`);
    const parts: string[] = [];
    let n = 0;
    ops.forEach(it!, (x) => {
      if (typeof x !== 'string') throw new EvalErr(`join: in list, want string, got ${typeName(x)}`);
      parts.push(x);
      n += x.length + s.length;
    });
    th.checkStrLen(n);
    if (n > 4096) {
      th.chargeAlloc(n);
      th.chargeSteps(parts.length + (n >> 4));
    }
    return parts.join(s);
  },
  lower(s: string, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    return lowerText(s);
  },
  lstrip(s: string, args, kwargs, name) {
    return stripImpl(s, name, args, kwargs);
  },
  partition(s: string, args, kwargs, name) {
    const [sepv] = positional(name, args, kwargs, 1, 1);
    const sep = strArg(name, 1, sepv!);
    if (sep === '') throw new EvalErr(`${name}: empty separator`);
    const i = name === 'partition' ? s.indexOf(sep) : s.lastIndexOf(sep);
    if (i < 0) return name === 'partition' ? new Tuple([s, '', '']) : new Tuple(['', '', s]);
    return new Tuple([s.slice(0, i), sep, s.slice(i + sep.length)]);
  },
  removeprefix(s: string, args, kwargs, name) {
    const [x] = positional(name, args, kwargs, 1, 1);
    const p = strArg(name, 1, x!);
    return s.startsWith(p) ? s.slice(p.length) : s;
  },
  removesuffix(s: string, args, kwargs, name) {
    const [x] = positional(name, args, kwargs, 1, 1);
    const p = strArg(name, 1, x!);
    return p !== '' && s.endsWith(p) ? s.slice(0, s.length - p.length) : s;
  },
  replace(s: string, args, kwargs, name, th) {
    const [ov, nv, cv] = positional(name, args, kwargs, 2, 3);
    const old = strArg(name, 1, ov!),
      neu = strArg(name, 2, nv!);
    let count = cv === undefined ? -1 : wantInt(name, 3, cv);
    if (count < 0) count = Infinity;
    let r: string;
    if (old === '') {
      // Go: insert at the start and after each rune, up to count times
      const rs = runes(s);
      const parts: string[] = [];
      let k = 0;
      for (let i = 0; i <= rs.length; i++) {
        if (k < count) {
          parts.push(neu);
          k++;
        }
        if (i < rs.length) parts.push(rs[i]!);
      }
      r = parts.join('');
    } else if (count === Infinity && s.length > 256) {
      th.chargeSteps(s.length >> 4);
      r = s.split(old).join(neu); // native and fast for large inputs
    } else {
      let i = s.indexOf(old);
      if (i < 0) return s;
      r = '';
      let from = 0,
        k = 0;
      while (i >= 0 && k < count) {
        r += s.slice(from, i) + neu;
        from = i + old.length;
        k++;
        i = s.indexOf(old, from);
      }
      r += s.slice(from);
    }
    if (r.length > 4096) {
      th.checkStrLen(r.length);
      th.chargeAlloc(r.length);
    }
    return r;
  },
  rfind(s: string, args, kwargs, name) {
    return find(s, name, args, kwargs, true, true);
  },
  rindex(s: string, args, kwargs, name) {
    return find(s, name, args, kwargs, false, true);
  },
  rpartition(s: string, args, kwargs, name, th) {
    return strMethods.partition!(s, args, kwargs, name, th);
  },
  rsplit(s: string, args, kwargs, name, th) {
    return splitImpl(s, name, args, kwargs, th);
  },
  rstrip(s: string, args, kwargs, name) {
    return stripImpl(s, name, args, kwargs);
  },
  split(s: string, args, kwargs, name, th) {
    return splitImpl(s, name, args, kwargs, th);
  },
  splitlines(s: string, args, kwargs, name) {
    const [kv] = positional(name, args, kwargs, 0, 1);
    const keepends = kv === undefined ? false : ops.truth(kv);
    if (kv !== undefined && typeof kv !== 'boolean') throw paramErr(name, 1, `got ${typeName(kv)}, want bool`);
    let lines: string[] = [];
    if (s !== '') {
      lines = keepends ? s.split(/(?<=\n)/) : s.split('\n');
      if (s.endsWith('\n') && !keepends) lines = lines.slice(0, -1);
    }
    return new List(lines);
  },
  startswith(s: string, args, kwargs, name) {
    return startsWith(s, name, args, kwargs);
  },
  strip(s: string, args, kwargs, name) {
    return stripImpl(s, name, args, kwargs);
  },
  title(s: string, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    return viaText(s, (t) => {
      let prevCased = false;
      let out = '';
      for (let c of t) {
        c = prevCased ? c.toLowerCase() : toTitle(c);
        prevCased = isCased(c);
        out += c;
      }
      return out;
    });
  },
  upper(s: string, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    return upperText(s);
  },
};

registerMethods('string', strMethods);

registerMethods('bytes', {
  elems(b: Bytes, args, kwargs, name) {
    positional(name, args, kwargs, 0, 0);
    return new StringIterable(b.s, 'elems', true);
  },
});
