// The Starlark scanner: a port of starlark-go's syntax/scan.go.
// It works on the JS (UTF-16) source text; columns count code points like
// starlark-go counts runes. String and bytes literal values are produced as
// "binary strings" (one JS char per byte, UTF-8 encoded), which is how the
// interpreter represents Starlark strings (see values/str.ts).

import { T, keywords } from './tokens.js';
import { encodeUTF8 } from '../values/utf8.js';

export interface Pos {
  line: number;
  col: number;
}

/**
 * Where one line of a program embedded in a larger file lies in that file (a script in a heredoc of
 * a configuration file): the file's line, and the file's column of the line's first character.
 */
export interface LinePlace {
  readonly line: number;
  readonly column: number;
}

/**
 * The position in the enclosing file of the program's `line`:`col`, given where each program line
 * lies (index 0: line 1). Lines past the table follow its last one (the end of the text).
 */
export function placeIn(place: readonly LinePlace[], line: number, col: number): Pos {
  const at = place[line - 1];
  if (at !== undefined) return { line: at.line, col: at.column + col - 1 };
  const last = place[place.length - 1];
  return last === undefined ? { line, col } : { line: last.line + line - place.length, col };
}

/** A compile-time error (scan, parse or resolve), with its position. */
export class SyntaxError_ extends Error {
  constructor(
    public readonly filename: string,
    public readonly pos: Pos,
    public readonly msg: string,
  ) {
    super(`${filename}:${pos.line}:${pos.col}: ${msg}`);
  }
}

export interface TokenValue {
  raw: string;
  int: number | bigint;
  float: number;
  str: string; // decoded string/bytes value (binary string)
  pos: Pos;
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isODigit = (c: number) => c >= 48 && c <= 55;
const isXDigit = (c: number) => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const isBDigit = (c: number) => c === 48 || c === 49;
const letterRe = /\p{L}/u;
function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (c > 127 && letterRe.test(String.fromCodePoint(c)));
}
const isIdent = (c: number) => isDigit(c) || isIdentStart(c);

export class Scanner {
  private i = 0;
  private line: number;
  private col: number;
  private depth = 0;
  private indentstk: number[] = [0];
  private dents = 0;
  private lineStart = true;
  private tokStart = 0;

  constructor(
    public readonly filename: string,
    private readonly src: string,
    /**
     * Where the program's lines are in `filename` when it is embedded in it: every position the
     * scanner gives (and so every token, error and backtrace) is then the file's own.
     */
    private readonly place?: readonly LinePlace[],
  ) {
    this.line = 1;
    this.col = 1;
  }

  error(pos: Pos, msg: string): never {
    throw new SyntaxError_(this.filename, pos, msg);
  }

  get pos(): Pos {
    return this.place === undefined ? { line: this.line, col: this.col } : placeIn(this.place, this.line, this.col);
  }

  private peek(): number {
    if (this.i >= this.src.length) return 0;
    const c = this.src.charCodeAt(this.i);
    if (c === 13) return 10;
    if (c >= 0xd800 && c < 0xdc00) return this.src.codePointAt(this.i)!;
    return c;
  }

  private read(): number {
    if (this.i >= this.src.length) this.error(this.pos, 'internal scanner error: readRune at EOF');
    let c = this.src.charCodeAt(this.i++);
    if (c === 13) {
      if (this.src.charCodeAt(this.i) === 10) this.i++;
      c = 10;
    }
    if (c === 10) {
      this.line++;
      this.col = 1;
      return c;
    }
    if (c >= 0xd800 && c < 0xdc00 && this.i < this.src.length) {
      const lo = this.src.charCodeAt(this.i);
      if (lo >= 0xdc00 && lo < 0xe000) {
        this.i++;
        c = (c - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
      }
    }
    this.col++;
    return c;
  }

  private eof(): boolean {
    return this.i >= this.src.length;
  }

  private start(val: TokenValue): void {
    this.tokStart = this.i;
    val.raw = '';
    val.pos = this.pos;
  }

  private end(val: TokenValue): void {
    if (val.raw === '') val.raw = this.src.slice(this.tokStart, this.i);
  }

  next(val: TokenValue): T {
    for (;;) {
      const savedLineStart = this.lineStart;
      const blank = this.lineStart ? this.indentation() : false;
      if (this.dents !== 0) {
        this.start(val);
        this.end(val);
        if (this.dents < 0) {
          this.dents++;
          return T.OUTDENT;
        }
        this.dents--;
        return T.INDENT;
      }
      let c = this.peek();
      while (c === 32 || c === 9) {
        this.read();
        c = this.peek();
      }
      if (c === 35) {
        while (c !== 0 && c !== 10) {
          this.read();
          c = this.peek();
        }
      }
      if (c === 10) {
        this.lineStart = true;
        if (this.depth > 0 || blank) {
          this.read();
          continue;
        }
        this.start(val);
        this.read();
        val.raw = '\n';
        return T.NEWLINE;
      }
      if (c === 0 && this.eof()) {
        if (this.indentstk.length > 1) {
          if (savedLineStart) {
            this.dents = 1 - this.indentstk.length;
            this.indentstk.length = 1;
            continue;
          }
          this.lineStart = true;
          this.start(val);
          val.raw = '\n';
          return T.NEWLINE;
        }
        this.start(val);
        this.end(val);
        return T.EOF;
      }
      if (c === 92) {
        // backslash line continuation
        this.read();
        if (this.peek() !== 10) this.error(this.pos, 'stray backslash in program');
        this.read();
        continue;
      }
      return this.token(val, c);
    }
  }

  /**
   * At the start of a line: skip and measure its indentation and, outside
   * brackets, record the INDENT or OUTDENTs to emit. Returns true if the line
   * is blank (only a comment, or nothing).
   */
  private indentation(): boolean {
    this.lineStart = false;
    let col = 0;
    let c: number;
    for (;;) {
      c = this.peek();
      if (c === 32) {
        col++;
        this.read();
      } else if (c === 9) {
        col += 8 - ((this.col - 1) % 8);
        this.read();
      } else break;
    }
    const blank = c === 35 || c === 10 || c === 0;
    if (blank || this.depth > 0) return blank;
    const cur = this.indentstk[this.indentstk.length - 1]!;
    if (col > cur) {
      this.dents++;
      this.indentstk.push(col);
    } else if (col < cur) {
      while (this.indentstk.length > 0 && col < this.indentstk[this.indentstk.length - 1]!) {
        this.dents--;
        this.indentstk.pop();
      }
      if (col !== this.indentstk[this.indentstk.length - 1]) {
        this.error(this.pos, 'unindent does not match any outer indentation level');
      }
    }
    return false;
  }

  /** The token that starts with c (not a newline, the end of input or a line continuation). */
  private token(val: TokenValue, c: number): T {
    this.start(val);
    if (c === 44) {
      this.read();
      this.end(val);
      return T.COMMA;
    }
    if (c === 34 || c === 39) return this.scanString(val, c);
    if (isIdentStart(c)) return this.scanWord(val, c);
    switch (c) {
      case 91:
      case 40:
      case 123:
        this.depth++;
        this.read();
        this.end(val);
        return c === 91 ? T.LBRACK : c === 40 ? T.LPAREN : T.LBRACE;
      case 93:
      case 41:
      case 125:
        if (this.depth === 0) this.error(this.pos, `unexpected ${JSON.stringify(String.fromCharCode(c))}`.replace(/"/g, "'"));
        this.depth--;
        this.read();
        this.end(val);
        return c === 93 ? T.RBRACK : c === 41 ? T.RPAREN : T.RBRACE;
    }
    if (isDigit(c) || c === 46) return this.scanNumber(val, c);
    const tok = this.punct(c);
    this.end(val);
    return tok;
  }

  /** An identifier or keyword, or a string with an r, b or rb prefix. */
  private scanWord(val: TokenValue, c: number): T {
    const n1 = this.src.charCodeAt(this.i + 1),
      n2 = this.src.charCodeAt(this.i + 2);
    if ((c === 114 || c === 98) && (n1 === 34 || n1 === 39)) {
      this.read();
      return this.scanString(val, this.peek());
    } else if (c === 114 && n1 === 98 && (n2 === 34 || n2 === 39)) {
      this.read();
      this.read();
      return this.scanString(val, this.peek());
    }
    while (isIdent(c)) {
      this.read();
      c = this.peek();
    }
    this.end(val);
    return keywords.get(val.raw) ?? T.IDENT;
  }

  private punct(c: number): T {
    const ch = String.fromCodePoint(c);
    switch (ch) {
      case '=':
      case '<':
      case '>':
      case '!':
      case '+':
      case '-':
      case '%':
      case '/':
      case '&':
      case '|':
      case '^': {
        const start = this.pos;
        this.read();
        if (this.peek() === 61) {
          this.read();
          switch (ch) {
            case '<':
              return T.LE;
            case '>':
              return T.GE;
            case '=':
              return T.EQL;
            case '!':
              return T.NEQ;
            case '+':
              return T.PLUS_EQ;
            case '-':
              return T.MINUS_EQ;
            case '/':
              return T.SLASH_EQ;
            case '%':
              return T.PERCENT_EQ;
            case '&':
              return T.AMP_EQ;
            case '|':
              return T.PIPE_EQ;
            case '^':
              return T.CIRCUMFLEX_EQ;
          }
        }
        switch (ch) {
          case '=':
            return T.EQ;
          case '<':
            if (this.peek() === 60) {
              this.read();
              if (this.peek() === 61) {
                this.read();
                return T.LTLT_EQ;
              }
              return T.LTLT;
            }
            return T.LT;
          case '>':
            if (this.peek() === 62) {
              this.read();
              if (this.peek() === 61) {
                this.read();
                return T.GTGT_EQ;
              }
              return T.GTGT;
            }
            return T.GT;
          case '!':
            return this.error(start, "unexpected input character '!'");
          case '+':
            return T.PLUS;
          case '-':
            return T.MINUS;
          case '/':
            if (this.peek() === 47) {
              this.read();
              if (this.peek() === 61) {
                this.read();
                return T.SLASHSLASH_EQ;
              }
              return T.SLASHSLASH;
            }
            return T.SLASH;
          case '%':
            return T.PERCENT;
          case '&':
            return T.AMP;
          case '|':
            return T.PIPE;
          case '^':
            return T.CIRCUMFLEX;
        }
        break;
      }
      case ':':
        this.read();
        return T.COLON;
      case ';':
        this.read();
        return T.SEMI;
      case '~':
        this.read();
        return T.TILDE;
      case '*':
        this.read();
        if (this.peek() === 42) {
          this.read();
          return T.STARSTAR;
        }
        if (this.peek() === 61) {
          this.read();
          return T.STAR_EQ;
        }
        return T.STAR;
    }
    this.error(this.pos, `unexpected input character ${goQuoteRune(c)}`);
  }

  private scanString(val: TokenValue, quote: number): T {
    const start = this.pos;
    const triple = this.src.charCodeAt(this.i) === quote && this.src.charCodeAt(this.i + 1) === quote && this.src.charCodeAt(this.i + 2) === quote;
    const prefixEnd = this.i; // the prefix r/b/rb was consumed already
    const prefix = this.src.slice(this.tokStart, prefixEnd);
    this.read();
    if (!triple) {
      for (;;) {
        if (this.eof()) this.error(val.pos, 'unexpected EOF in string');
        const c = this.read();
        if (c === quote) break;
        if (c === 10) this.error(val.pos, 'unexpected newline in string');
        if (c === 92) {
          if (this.eof()) this.error(val.pos, 'unexpected EOF in string');
          this.read();
        }
      }
    } else {
      this.read();
      this.read();
      let q = 0;
      for (;;) {
        if (this.eof()) this.error(val.pos, 'unexpected EOF in string');
        const c = this.read();
        if (c === quote) {
          if (++q === 3) break;
        } else q = 0;
        if (c === 92) {
          if (this.eof()) this.error(val.pos, 'unexpected EOF in string');
          this.read();
        }
      }
    }
    val.raw = this.src.slice(this.tokStart, this.i);
    const body = this.src.slice(prefixEnd + (triple ? 3 : 1), this.i - (triple ? 3 : 1));
    const raw = prefix.includes('r');
    const isByte = prefix.includes('b');
    try {
      val.str = unquote(body, raw, isByte);
    } catch (e) {
      if (e instanceof UnquoteError) this.error(start, e.message);
      throw e;
    }
    return isByte ? T.BYTES : T.STRING;
  }

  private scanNumber(val: TokenValue, c: number): T {
    const start = this.pos;
    let fraction = false,
      exponent = false;
    if (c === 46) {
      this.read();
      c = this.peek();
      if (!isDigit(c)) {
        this.end(val);
        return T.DOT;
      }
      fraction = true;
    } else if (c === 48) {
      this.read();
      c = this.peek();
      if (c === 46) fraction = true;
      else if (c === 120 || c === 88) {
        this.read();
        c = this.peek();
        if (!isXDigit(c)) this.error(start, 'invalid hex literal');
        while (isXDigit(c)) {
          this.read();
          c = this.peek();
        }
      } else if (c === 111 || c === 79) {
        this.read();
        c = this.peek();
        if (!isODigit(c)) this.error(this.pos, 'invalid octal literal');
        while (isODigit(c)) {
          this.read();
          c = this.peek();
        }
      } else if (c === 98 || c === 66) {
        this.read();
        c = this.peek();
        if (!isBDigit(c)) this.error(this.pos, 'invalid binary literal');
        while (isBDigit(c)) {
          this.read();
          c = this.peek();
        }
      } else {
        let allzeros = true,
          octal = true;
        while (isDigit(c)) {
          if (c !== 48) allzeros = false;
          if (c > 55) octal = false;
          this.read();
          c = this.peek();
        }
        if (c === 46) fraction = true;
        else if (c === 101 || c === 69) exponent = true;
        else if (octal && !allzeros) {
          this.end(val);
          this.error(this.pos, `obsolete form of octal literal; use 0o${val.raw.slice(1)}`);
        }
      }
    } else {
      while (isDigit(c)) {
        this.read();
        c = this.peek();
      }
      if (c === 46) fraction = true;
      else if (c === 101 || c === 69) exponent = true;
    }
    if (fraction) {
      this.read();
      c = this.peek();
      while (isDigit(c)) {
        this.read();
        c = this.peek();
      }
      if (c === 101 || c === 69) exponent = true;
    }
    if (exponent) {
      this.read();
      c = this.peek();
      if (c === 43 || c === 45) {
        this.read();
        c = this.peek();
        if (!isDigit(c)) this.error(this.pos, 'invalid float literal');
      }
      while (isDigit(c)) {
        this.read();
        c = this.peek();
      }
    }
    this.end(val);
    const s = val.raw;
    if (fraction || exponent) {
      const f = Number(s);
      if (Number.isNaN(f)) this.error(this.pos, 'invalid float literal');
      val.float = f;
      return T.FLOAT;
    }
    let b: bigint;
    try {
      if (s.length > 2 && s[0] === '0' && /[oObBxX]/.test(s[1]!)) b = BigInt('0' + s[1]!.toLowerCase() + s.slice(2));
      else b = BigInt(s);
    } catch {
      this.error(start, 'invalid int literal');
    }
    val.int = b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
    return T.INT;
  }
}

class UnquoteError extends Error {}

function goQuoteRune(c: number): string {
  const s = String.fromCodePoint(c);
  if (c < 32 || c === 127) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  return `'${s}'`;
}

const unesc: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"' };

/** Decode the body of a string literal into a binary (UTF-8 byte) string. Port of quote.go unquote. */
export function unquote(quoted: string, raw: boolean, isByte: boolean): string {
  const specials = raw ? /\r/ : /[\\\r]/;
  if (!specials.test(quoted)) return encodeUTF8(quoted);
  let out = '';
  let i = 0;
  const n = quoted.length;
  while (i < n) {
    let j = i;
    while (j < n && quoted[j] !== '\r' && (raw || quoted[j] !== '\\')) j++;
    out += encodeUTF8(quoted.slice(i, j));
    i = j;
    if (i >= n) break;
    if (quoted[i] === '\r') {
      out += '\n';
      i += quoted[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    if (i + 1 >= n) throw new UnquoteError('truncated escape sequence \\');
    const e = quoted[i + 1]!;
    switch (e) {
      case '\n':
        i += 2;
        break;
      case 'a':
      case 'b':
      case 'f':
      case 'n':
      case 'r':
      case 't':
      case 'v':
      case '\\':
      case "'":
      case '"':
        out += unesc[e];
        i += 2;
        break;
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7': {
        let v = e.charCodeAt(0) - 48;
        i += 2;
        for (let k = 1; k < 3; k++) {
          const d = quoted.charCodeAt(i);
          if (!(d >= 48 && d <= 55)) break;
          v = v * 8 + d - 48;
          i++;
        }
        if (!isByte && v > 127) {
          const h = v.toString(16).toUpperCase().padStart(4, '0');
          throw new UnquoteError(`non-ASCII octal escape \\${v.toString(8)} (use \\u${h} for the UTF-8 encoding of U+${h})`);
        }
        if (v >= 256) throw new UnquoteError(`invalid escape sequence \\${v.toString(8).padStart(3, '0')}`);
        out += String.fromCharCode(v);
        break;
      }
      case 'x': {
        if (n - i < 4) throw new UnquoteError(`truncated escape sequence ${quoted.slice(i)}`);
        const hx = quoted.slice(i + 2, i + 4);
        if (!/^[0-9a-fA-F]{2}$/.test(hx)) throw new UnquoteError(`invalid escape sequence ${quoted.slice(i, i + 4)}`);
        const v = parseInt(hx, 16);
        if (!isByte && v > 127) {
          const h = v.toString(16).toUpperCase().padStart(4, '0');
          throw new UnquoteError(`non-ASCII hex escape ${quoted.slice(i, i + 4)} (use \\u${h} for the UTF-8 encoding of U+${h})`);
        }
        out += String.fromCharCode(v);
        i += 4;
        break;
      }
      case 'u':
      case 'U': {
        const sz = e === 'U' ? 10 : 6;
        if (n - i < sz) throw new UnquoteError(`truncated escape sequence ${quoted.slice(i)}`);
        const hx = quoted.slice(i + 2, i + sz);
        if (!/^[0-9a-fA-F]+$/.test(hx)) throw new UnquoteError(`invalid escape sequence ${quoted.slice(i, i + sz)}`);
        const v = parseInt(hx, 16);
        if (v > 0x10ffff) throw new UnquoteError(`code point out of range: ${quoted.slice(i, i + sz)} (max \\U${(0x10ffff).toString(16).padStart(8, '0')})`);
        if (v >= 0xd800 && v < 0xe000) throw new UnquoteError(`invalid Unicode code point U+${v.toString(16).toUpperCase().padStart(4, '0')}`);
        out += encodeUTF8(String.fromCodePoint(v));
        i += sz;
        break;
      }
      default:
        throw new UnquoteError(`invalid escape sequence \\${e}`);
    }
  }
  return out;
}
