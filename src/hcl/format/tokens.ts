/**
 * The formatter's token stream (hclwrite's `Tokens`): every non-layout piece of the file, comments
 * included, each with the spaces to print before it. Comments come back from the scanner's tokens
 * (a line comment is its Newline token's text, a `/* *\/` one lies in a gap between tokens); gaps
 * hold only spaces and tabs outside templates and none inside, so the formatter only chooses spaces.
 */
import { T, type Token, type TokenType } from '../tokens.js';

/** hclwrite's TokenComment: `# …` / `// …` (with its newline, when it has one) or `/* … *\/`. */
export const COMMENT = 100;

export type FmtTokenType = TokenType | typeof COMMENT;

export interface FmtToken {
  readonly type: FmtTokenType;
  readonly text: string;
  /** Spaces printed before the token; the formatter's passes set it. */
  spacesBefore: number;
}

/** A newline, or a line comment that ends with its newline: either ends a line. */
export function endsLine(t: FmtToken): boolean {
  return t.type === T.Newline || (t.type === COMMENT && t.text.endsWith('\n'));
}

/**
 * The tokens of a file that parsed, without the EOF token, in source order. `start` is where the
 * scanner began (after a byte order mark). Throws on text the scanner did not account for, which
 * only a scanner bug could leave.
 */
export function formatTokens(src: string, tokens: readonly Token[], start: number): FmtToken[] {
  const out: FmtToken[] = [];
  let at = start;
  for (const tok of tokens) {
    if (tok.start > at) gapComments(src, at, tok.start, out);
    at = tok.end;
    if (tok.type === T.EOF) break;
    const text = src.slice(tok.start, tok.end);
    const isComment = tok.type === T.Newline && (text.startsWith('#') || text.startsWith('/'));
    out.push({ type: isComment ? COMMENT : tok.type, text, spacesBefore: 0 });
  }
  return out;
}

/** The comments between two tokens; everything else there must be spaces or tabs. */
function gapComments(src: string, from: number, to: number, out: FmtToken[]): void {
  let i = from;
  while (i < to) {
    const c = src.charCodeAt(i);
    if (c === 0x20 || c === 0x09) {
      i++;
    } else if (src.startsWith('/*', i)) {
      const close = src.indexOf('*/', i + 2);
      const end = close < 0 || close + 2 > to ? to : close + 2;
      out.push({ type: COMMENT, text: src.slice(i, end), spacesBefore: 0 });
      i = end;
    } else if (c === 0x23 || src.startsWith('//', i)) {
      // A line comment without a newline: only the last line of a file can hold one.
      out.push({ type: COMMENT, text: src.slice(i, to), spacesBefore: 0 });
      i = to;
    } else {
      throw new Error(`formatter: unexpected text between tokens at offset ${i}: ${JSON.stringify(src.slice(i, Math.min(to, i + 20)))}`);
    }
  }
}
