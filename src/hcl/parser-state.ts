/**
 * The parser's shared state: a token peeker with hclsyntax's newline-sensitivity stack, the
 * diagnostics list, and the recovery helpers (ports of peeker.go and the recover* functions in
 * parser.go). The grammar lives in parser-body.ts, parser-expr.ts and parser-template.ts.
 */
import type { Diagnostic, Range } from '../diag/index.js';
import { T, type Token, type TokenType } from './tokens.js';

/**
 * How deep blocks, brackets, operators and template directives may nest. The parser, the expression
 * compiler, evaluators and every other tree walker recurse once per level, so an adversarial file
 * (`((((…` ten thousand times) would otherwise overflow the stack with a RangeError instead of a
 * diagnostic. Real configurations stay far below this (hclsyntax itself has no limit: Go stacks grow).
 */
const MAX_NESTING = 128;

export class ParserState {
  private next = 0;
  private readonly newlines: boolean[] = [true];
  readonly diags: Diagnostic[] = [];
  /**
   * Set once the parser has skipped tokens to resynchronise: further "unexpected token" errors
   * are likely noise and are suppressed (hclsyntax's `recovery`). Unlike hclsyntax, the body
   * parser clears it at the start of each body item, so later independent errors are reported.
   */
  recovery = false;
  /** Current nesting (see MAX_NESTING): raised by enter(), lowered by leave(). */
  private depth = 0;

  constructor(
    readonly src: string,
    readonly filename: string,
    readonly tokens: readonly Token[],
  ) {}

  // ---------------------------------------------------------------- peeker

  private nextIndex(): number {
    const toks = this.tokens;
    const includeNewlines = this.newlines[this.newlines.length - 1];
    for (let i = this.next; i < toks.length; i++) {
      const ty = toks[i]!.type;
      if ((ty === T.Newline && !includeNewlines) || ty === T.UnterminatedComment) continue;
      return i;
    }
    return toks.length - 1; // EOF
  }

  peek(): Token {
    return this.tokens[this.nextIndex()]!;
  }

  read(): Token {
    const i = this.nextIndex();
    const t = this.tokens[i]!;
    // Stay on EOF forever.
    this.next = t.type === T.EOF ? i : i + 1;
    return t;
  }

  nextRange(): Range {
    return this.peek().range;
  }

  prevRange(): Range {
    if (this.next === 0) return this.nextRange();
    return this.tokens[this.next - 1]!.range;
  }

  pushNewlines(include: boolean): void {
    this.newlines.push(include);
  }

  popNewlines(): void {
    this.newlines.pop();
  }

  text(t: Token): string {
    return this.src.slice(t.start, t.end);
  }

  // ---------------------------------------------------------------- nesting

  /**
   * Enters one more level of nesting. Past MAX_NESTING it reports "Nesting too deep" at `at`
   * (unless recovering), sets recovery so that callers skip to their closing brackets, and returns
   * false without entering: the caller must then not descend.
   */
  enter(at: Range): boolean {
    if (this.depth >= MAX_NESTING) {
      if (!this.recovery) {
        this.error(
          'Nesting too deep',
          `Blocks, brackets, operators, template directives and traversal steps ([0], .name) may nest at most ${MAX_NESTING} levels deep. Split this construct into smaller parts.`,
          at,
        );
      }
      this.recovery = true;
      return false;
    }
    this.depth++;
    return true;
  }

  /** Leaves `levels` levels entered with enter(). */
  leave(levels = 1): void {
    this.depth -= levels;
  }

  // ---------------------------------------------------------------- diagnostics

  error(summary: string, detail: string, subject: Range, context?: Range): void {
    this.diags.push({ severity: 'error', summary, detail, subject, ...(context ? { context } : {}) });
  }

  /** A mark to test "were errors reported since" (every parser diagnostic is an error). */
  mark(): number {
    return this.diags.length;
  }

  errorsSince(mark: number): boolean {
    return this.diags.length > mark;
  }

  // ---------------------------------------------------------------- recovery

  /**
   * Skips forward to the token `end`, counting nested bracket pairs, and returns it (or EOF).
   * The peeker is left after it.
   */
  recover(end: TokenType): Token {
    const start = oppositeBracket(end);
    this.recovery = true;
    let nest = 0;
    for (;;) {
      const tok = this.read();
      let ty: TokenType = tok.type;
      if (end === T.TemplateSeqEnd && ty === T.TemplateControl) ty = T.TemplateInterp;
      if (ty === start) nest++;
      else if (ty === T.QuotedNewline && end === T.CQuote && nest < 1)
        return tok; // string ended at a line break
      else if (ty === end) {
        if (nest < 1) return tok;
        nest--;
      } else if (ty === T.EOF) return tok;
    }
  }

  /** Finds the next `start` bracket, then skips to its matching end. */
  recoverOver(start: TokenType): void {
    for (;;) {
      const tok = this.read();
      if (tok.type === start || tok.type === T.EOF) break;
    }
    this.recover(oppositeBracket(start) as TokenType);
  }

  /** Skips to the newline that ends the current body item, outside any brackets. */
  recoverAfterBodyItem(): void {
    this.recovery = true;
    const open: TokenType[] = [];
    for (;;) {
      const tok = this.read();
      switch (tok.type) {
        case T.Newline:
          if (open.length === 0) return;
          break;
        case T.EOF:
          return;
        case T.OBrace:
        case T.OBrack:
        case T.OParen:
        case T.OQuote:
        case T.OHeredoc:
        case T.TemplateInterp:
        case T.TemplateControl:
          open.push(tok.type);
          break;
        case T.CBrace:
        case T.CBrack:
        case T.CParen:
        case T.CQuote:
        case T.CHeredoc: {
          const opener = oppositeBracket(tok.type);
          while (open.length > 0 && open[open.length - 1] !== opener) open.pop();
          if (open.length > 0) open.pop();
          break;
        }
        case T.QuotedNewline:
          // Our scanner ends an unterminated quoted string at the line break.
          while (open.length > 0 && open[open.length - 1] !== T.OQuote) open.pop();
          if (open.length > 0) open.pop();
          break;
        case T.TemplateSeqEnd:
          while (open.length > 0 && open[open.length - 1] !== T.TemplateInterp && open[open.length - 1] !== T.TemplateControl) open.pop();
          if (open.length > 0) open.pop();
          break;
      }
    }
  }
}

function oppositeBracket(ty: TokenType): TokenType | 0 {
  switch (ty) {
    case T.OBrace:
      return T.CBrace;
    case T.OBrack:
      return T.CBrack;
    case T.OParen:
      return T.CParen;
    case T.OQuote:
      return T.CQuote;
    case T.OHeredoc:
      return T.CHeredoc;
    case T.CBrace:
      return T.OBrace;
    case T.CBrack:
      return T.OBrack;
    case T.CParen:
      return T.OParen;
    case T.CQuote:
      return T.OQuote;
    case T.CHeredoc:
      return T.OHeredoc;
    case T.TemplateControl:
      return T.TemplateSeqEnd;
    case T.TemplateInterp:
      return T.TemplateSeqEnd;
    case T.TemplateSeqEnd:
      return T.TemplateInterp;
    default:
      return 0;
  }
}
