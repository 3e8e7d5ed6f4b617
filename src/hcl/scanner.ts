/**
 * The scanner: source text -> flat token list, a hand-written port of hclsyntax's scan_tokens.rl.
 * Modal like the Ragel machine (`main`, `string`, `heredoc`, `bare`); `${` and `%{` enter `main` and
 * the matching `}` returns, by a brace counter as in hclsyntax, so `"${ {a = 1} }"` scans.
 * Positions are 1-based lines and code-point columns, byte offsets UTF-8, computed by a forward-only
 * cursor. Comments make no tokens, but a line comment's newline is a Newline token spanning it (as
 * hclsyntax's peeker does).
 */
import type { Pos } from '../diag/index.js';
import { T, Token, type TokenType } from './tokens.js';
import { codePointAt, isDigit, isIdentContinue, isIdentStart, trimSpace } from './chars.js';
import { Cursor } from './cursor.js';

export type ScanMode = 'normal' | 'template';

const MAIN = 0;
const STRING = 1;
const HEREDOC = 2;
const BARE = 3;

interface HeredocInProgress {
  readonly marker: string;
  startOfLine: boolean;
}

const ZERO: Pos = { line: 1, column: 1, byte: 0 };

export function scan(src: string, filename: string, start: Pos = ZERO, mode: ScanMode = 'normal'): Token[] {
  const tokens: Token[] = [];
  const n = src.length;

  // ---- position cursor
  let p = 0;
  const cur = new Cursor(src, 0, start.line, start.column, start.byte);
  if (n > 0 && src.charCodeAt(0) === 0xfeff) {
    // hclsyntax strips a UTF-8 byte order mark, counting its bytes but no column.
    cur.idx = 1;
    cur.byte += 3;
    p = 1;
  }

  function emit(type: TokenType, s: number, e: number): void {
    cur.advanceTo(s);
    const sl = cur.line,
      sc = cur.column,
      sb = cur.byte;
    if (e !== s) cur.advanceTo(e);
    tokens.push(new Token(type, s, e, filename, sl, sc, sb, cur.line, cur.column, cur.byte));
  }

  /** emit() for a token known to be ASCII on one line (operators, numbers, most identifiers). */
  function emitAscii(type: TokenType, s: number, e: number): void {
    cur.advanceTo(s);
    const sl = cur.line,
      sc = cur.column,
      sb = cur.byte;
    const len = e - s;
    cur.idx = e;
    cur.column = sc + len;
    cur.byte = sb + len;
    tokens.push(new Token(type, s, e, filename, sl, sc, sb, sl, cur.column, cur.byte));
  }

  // ---- modal state (the Ragel machine's call stack, brace counter and heredoc stack)
  let m = mode === 'template' ? BARE : MAIN;
  const stack: number[] = [];
  let braces = 0;
  const retBraces: number[] = [];
  const heredocs: HeredocInProgress[] = [];

  function enterSequence(type: TokenType): void {
    // `${` or `%{`, optionally followed by the strip marker `~`.
    const e = src.charCodeAt(p + 2) === 0x7e /* ~ */ ? p + 3 : p + 2;
    emit(type, p, e);
    p = e;
    braces++;
    retBraces.push(braces);
    if (heredocs.length > 0) heredocs[heredocs.length - 1]!.startOfLine = false;
    stack.push(m);
    m = MAIN;
  }

  function closeBrace(len: number, forceSeqEnd: boolean): void {
    if (retBraces.length > 0 && retBraces[retBraces.length - 1] === braces) {
      emit(T.TemplateSeqEnd, p, p + len);
      braces--;
      retBraces.pop();
      m = stack.pop() ?? MAIN;
    } else {
      // `~}` that closes no template sequence is still a TemplateSeqEnd, so that the parser can
      // report the misuse (hclsyntax does the same).
      emit(forceSeqEnd ? T.TemplateSeqEnd : T.CBrace, p, p + len);
      braces--;
    }
    p += len;
  }

  /** Whether the identifier last measured by identLength was all ASCII. */
  let identAscii = true;

  /** Length of an identifier starting at i (0 if none). */
  function identLength(i: number): number {
    if (i >= n) return 0;
    let cp = codePointAt(src, i);
    if (!isIdentStart(cp)) return 0;
    identAscii = cp < 0x80;
    let k = i + (cp > 0xffff ? 2 : 1);
    while (k < n) {
      const c = src.charCodeAt(k);
      if (c < 0x80) {
        if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d) {
          k++;
          continue;
        }
        break;
      }
      cp = codePointAt(src, k);
      if (!isIdentContinue(cp)) break;
      identAscii = false;
      k += cp > 0xffff ? 2 : 1;
    }
    return k - i;
  }

  while (p < n) {
    const c = src.charCodeAt(p);

    if (m === MAIN) {
      switch (c) {
        case 0x20: // space
        case 0x09: // tab
          p++;
          while (p < n) {
            const d = src.charCodeAt(p);
            if (d !== 0x20 && d !== 0x09) break;
            p++;
          }
          continue;
        case 0x0a:
          emit(T.Newline, p, p + 1);
          p++;
          continue;
        case 0x0d:
          if (src.charCodeAt(p + 1) === 0x0a) {
            emit(T.Newline, p, p + 2);
            p += 2;
          } else {
            emit(T.Invalid, p, p + 1);
            p++;
          }
          continue;
        case 0x23: // #
          lineComment();
          continue;
        case 0x2f: // /
          if (src.charCodeAt(p + 1) === 0x2f) {
            lineComment();
          } else if (src.charCodeAt(p + 1) === 0x2a) {
            const close = src.indexOf('*/', p + 2);
            if (close < 0) {
              emit(T.UnterminatedComment, p, n);
              p = n;
            } else {
              p = close + 2;
            }
          } else {
            emit(T.Slash, p, p + 1);
            p++;
          }
          continue;
        case 0x22: // "
          emit(T.OQuote, p, p + 1);
          p++;
          stack.push(m);
          m = STRING;
          continue;
        case 0x3c: // <
          if (src.charCodeAt(p + 1) === 0x3c && heredocIntro()) continue;
          if (src.charCodeAt(p + 1) === 0x3d) op(T.LessThanEq, 2);
          else op(T.LessThan, 1);
          continue;
        case 0x7b: // {
          emit(T.OBrace, p, p + 1);
          p++;
          braces++;
          continue;
        case 0x7d: // }
          closeBrace(1, false);
          continue;
        case 0x7e: // ~
          if (src.charCodeAt(p + 1) === 0x7d) closeBrace(2, true);
          else op(T.BitwiseNot, 1);
          continue;
        case 0x3d: // =
          if (src.charCodeAt(p + 1) === 0x3d) op(T.EqualOp, 2);
          else if (src.charCodeAt(p + 1) === 0x3e) op(T.FatArrow, 2);
          else op(T.Equal, 1);
          continue;
        case 0x21: // !
          if (src.charCodeAt(p + 1) === 0x3d) op(T.NotEqual, 2);
          else op(T.Bang, 1);
          continue;
        case 0x3e: // >
          if (src.charCodeAt(p + 1) === 0x3d) op(T.GreaterThanEq, 2);
          else op(T.GreaterThan, 1);
          continue;
        case 0x26: // &
          if (src.charCodeAt(p + 1) === 0x26) op(T.And, 2);
          else op(T.BitwiseAnd, 1);
          continue;
        case 0x7c: // |
          if (src.charCodeAt(p + 1) === 0x7c) op(T.Or, 2);
          else op(T.BitwiseOr, 1);
          continue;
        case 0x3a: // :
          if (src.charCodeAt(p + 1) === 0x3a) op(T.DoubleColon, 2);
          else op(T.Colon, 1);
          continue;
        case 0x2e: // .
          if (src.charCodeAt(p + 1) === 0x2e && src.charCodeAt(p + 2) === 0x2e) op(T.Ellipsis, 3);
          else op(T.Dot, 1);
          continue;
        case 0x5b:
          op(T.OBrack, 1);
          continue;
        case 0x5d:
          op(T.CBrack, 1);
          continue;
        case 0x28:
          op(T.OParen, 1);
          continue;
        case 0x29:
          op(T.CParen, 1);
          continue;
        case 0x2c:
          op(T.Comma, 1);
          continue;
        case 0x2a:
          op(T.Star, 1);
          continue;
        case 0x25:
          op(T.Percent, 1);
          continue;
        case 0x2b:
          op(T.Plus, 1);
          continue;
        case 0x2d:
          op(T.Minus, 1);
          continue;
        case 0x3f:
          op(T.Question, 1);
          continue;
        case 0x5e:
          op(T.BitwiseXor, 1);
          continue;
        case 0x3b:
          op(T.Semicolon, 1);
          continue;
        case 0x60:
          op(T.Backtick, 1);
          continue;
        case 0x27:
          op(T.Apostrophe, 1);
          continue;
      }
      if (isDigit(c)) {
        number();
        continue;
      }
      const il = identLength(p);
      if (il > 0) {
        if (identAscii) emitAscii(T.Ident, p, p + il);
        else emit(T.Ident, p, p + il);
        p += il;
        continue;
      }
      // Anything else is one invalid character (a whole code point).
      const cp = codePointAt(src, p);
      const w = cp > 0xffff ? 2 : 1;
      emit(T.Invalid, p, p + w);
      p += w;
      continue;
    }

    // ---- template modes
    if ((c === 0x24 /* $ */ || c === 0x25) /* % */ && src.charCodeAt(p + 1) === 0x7b) {
      enterSequence(c === 0x24 ? T.TemplateInterp : T.TemplateControl);
      continue;
    }

    if (m === STRING) {
      if (c === 0x22) {
        emit(T.CQuote, p, p + 1);
        p++;
        m = stack.pop() ?? MAIN;
        continue;
      }
      if (c === 0x0a || c === 0x0d) {
        // Deviation from hclsyntax, which keeps scanning the next lines as string content: the
        // string ends here, so one missing quote does not swallow the rest of the file.
        emit(T.QuotedNewline, p, p);
        m = stack.pop() ?? MAIN;
        continue;
      }
      const s = p;
      while (p < n) {
        const d = src.charCodeAt(p);
        if (d === 0x22 || d === 0x0a || d === 0x0d) break;
        if (d === 0x5c /* \ */) {
          const e = src.charCodeAt(p + 1);
          p += p + 1 < n && e !== 0x0a && e !== 0x0d ? 2 : 1;
          continue;
        }
        if ((d === 0x24 || d === 0x25) && p > s && src.charCodeAt(p + 1) === 0x7b) break;
        if ((d === 0x24 || d === 0x25) && src.charCodeAt(p + 1) === d && src.charCodeAt(p + 2) === 0x7b) {
          p += 3; // `$${` / `%%{`: an escaped sequence opener, literal text
          continue;
        }
        p++;
      }
      emit(T.QuotedLit, s, p);
      continue;
    }

    if (m === HEREDOC) {
      const doc = heredocs[heredocs.length - 1]!;
      const s = p;
      let eol = -1; // index of the newline sequence that ends this literal, if any
      while (p < n) {
        const d = src.charCodeAt(p);
        if (d === 0x0a) {
          eol = p;
          p++;
          break;
        }
        if (d === 0x0d && src.charCodeAt(p + 1) === 0x0a) {
          eol = p;
          p += 2;
          break;
        }
        if (d === 0x24 || d === 0x25) {
          if (src.charCodeAt(p + 1) === 0x7b) break;
          if (src.charCodeAt(p + 1) === d && src.charCodeAt(p + 2) === 0x7b) {
            p += 3;
            continue;
          }
        }
        p++;
      }
      const atEnd = eol >= 0 || p >= n;
      if (atEnd && doc.startOfLine && trimSpace(src.slice(s, eol >= 0 ? eol : p)) === doc.marker) {
        // The closing marker. Its newline is a separate token, so it can end the attribute.
        // (At end of input without a newline we accept it too, more lenient than hclsyntax.)
        const markerEnd = eol >= 0 ? eol : p;
        emit(T.CHeredoc, s, markerEnd);
        if (eol >= 0) emit(T.Newline, eol, p);
        heredocs.pop();
        m = stack.pop() ?? MAIN;
        continue;
      }
      if (p > s) emit(T.StringLit, s, p);
      doc.startOfLine = eol >= 0;
      continue;
    }

    // BARE: literal text up to the next sequence.
    {
      const s = p;
      while (p < n) {
        const d = src.charCodeAt(p);
        if (d === 0x24 || d === 0x25) {
          if (src.charCodeAt(p + 1) === 0x7b) break;
          if (src.charCodeAt(p + 1) === d && src.charCodeAt(p + 2) === 0x7b) {
            p += 3;
            continue;
          }
        }
        p++;
      }
      emit(T.StringLit, s, p);
    }
  }

  emit(T.EOF, n, n);
  return tokens;

  // ---- helpers that advance p

  function op(type: TokenType, len: number): void {
    emitAscii(type, p, p + len);
    p += len;
  }

  function lineComment(): void {
    const s = p;
    let e = src.indexOf('\n', p);
    if (e < 0) {
      p = n; // a comment at the end of the input: no newline, no token
      return;
    }
    e++;
    emit(T.Newline, s, e);
    p = e;
  }

  /**
   * NumberLit = digit ("" | (Cont - '.') | (Cont* (Cont - '.'))), Cont = digit | '.' | [eE][+-]?digit.
   * Greedy, so `1.2.3` is one (invalid) token and `foo.0.1` holds the number `0.1`, as in hclsyntax.
   */
  function number(): void {
    const s = p;
    let q = p + 1;
    let lastGood = q;
    for (;;) {
      const d = src.charCodeAt(q);
      if (isDigit(d)) {
        q++;
        lastGood = q;
      } else if (d === 0x2e) {
        q++;
      } else if (d === 0x65 || d === 0x45) {
        let r = q + 1;
        const sign = src.charCodeAt(r);
        if (sign === 0x2b || sign === 0x2d) r++;
        if (!isDigit(src.charCodeAt(r))) break;
        q = r + 1;
        lastGood = q;
      } else break;
    }
    emitAscii(T.NumberLit, s, lastGood);
    p = lastGood;
  }

  /** `<<` or `<<-`, an identifier and a newline introduce a heredoc. */
  function heredocIntro(): boolean {
    let q = p + 2;
    if (src.charCodeAt(q) === 0x2d) q++;
    const il = identLength(q);
    if (il === 0) return false;
    const markerStart = q;
    q += il;
    if (src.charCodeAt(q) === 0x0d) q++;
    if (src.charCodeAt(q) !== 0x0a) return false;
    q++;
    emit(T.OHeredoc, p, q);
    heredocs.push({ marker: src.slice(markerStart, markerStart + il), startOfLine: true });
    p = q;
    stack.push(m);
    m = HEREDOC;
    return true;
  }
}
