/**
 * Token kinds produced by the scanner (mirrors hclsyntax's TokenType set, including the
 * "invalid" kinds it recognises only to give better diagnostics).
 *
 * A plain object of numbers rather than a TS `enum`/`const enum`: it survives isolated-module
 * transpilation (tsx, esbuild) unchanged and property reads are cheap.
 */
import type { Pos, Range } from '../diag/index.js';

export const T = {
  OBrace: 1,
  CBrace: 2,
  OBrack: 3,
  CBrack: 4,
  OParen: 5,
  CParen: 6,
  OQuote: 7,
  CQuote: 8,
  OHeredoc: 9,
  CHeredoc: 10,

  Star: 11,
  Slash: 12,
  Plus: 13,
  Minus: 14,
  Percent: 15,

  Equal: 16,
  EqualOp: 17,
  NotEqual: 18,
  LessThan: 19,
  LessThanEq: 20,
  GreaterThan: 21,
  GreaterThanEq: 22,

  And: 23,
  Or: 24,
  Bang: 25,

  Dot: 26,
  Comma: 27,
  DoubleColon: 28,
  Ellipsis: 29,
  FatArrow: 30,
  Question: 31,
  Colon: 32,

  TemplateInterp: 33,
  TemplateControl: 34,
  TemplateSeqEnd: 35,

  /** Literal text inside a quoted string: may hold backslash escapes. */
  QuotedLit: 36,
  /** Literal text inside a heredoc or bare template: no backslash escapes. */
  StringLit: 37,
  NumberLit: 38,
  Ident: 39,

  Newline: 40,
  EOF: 41,

  // Not part of the language; recognised so that the parser can explain the mistake.
  BitwiseAnd: 42,
  BitwiseOr: 43,
  BitwiseNot: 44,
  BitwiseXor: 45,
  Apostrophe: 46,
  Backtick: 47,
  Semicolon: 48,
  Invalid: 49,
  /**
   * A line break inside a quoted string. Zero-width, placed where the break starts: the scanner
   * ends the string there (so the rest of the file still parses) and the parser reports
   * "Unterminated template string".
   */
  QuotedNewline: 50,
  /** An unterminated `/*` comment; runs to the end of the input. */
  UnterminatedComment: 51,
} as const;

export type TokenType = (typeof T)[keyof typeof T];

/**
 * A token. Positions are kept as plain numbers and the `Range` object is built only when asked
 * for: a manifest has tens of thousands of tokens, and four objects per token made the garbage
 * collector the scanner's main cost.
 */
export class Token {
  private r: Range | undefined = undefined;
  private sp: Pos | undefined = undefined;
  private ep: Pos | undefined = undefined;

  constructor(
    readonly type: TokenType,
    /** UTF-16 offsets into the source string, [start, end). */
    readonly start: number,
    readonly end: number,
    readonly filename: string,
    private readonly sl: number,
    private readonly sc: number,
    private readonly sb: number,
    private readonly el: number,
    private readonly ec: number,
    private readonly eb: number,
  ) {}

  get startPos(): Pos {
    let p = this.sp;
    if (p === undefined) p = this.sp = { line: this.sl, column: this.sc, byte: this.sb };
    return p;
  }

  get endPos(): Pos {
    let p = this.ep;
    if (p === undefined) p = this.ep = { line: this.el, column: this.ec, byte: this.eb };
    return p;
  }

  get range(): Range {
    let r = this.r;
    if (r === undefined) r = this.r = { filename: this.filename, start: this.startPos, end: this.endPos };
    return r;
  }
}

/** The range from the start of token a to the end of token b, without materialising their own ranges. */
export function span(a: Token, b: Token): Range {
  return { filename: a.filename, start: a.startPos, end: b.endPos };
}
