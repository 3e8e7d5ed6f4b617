/**
 * Whether one space or none separates two tokens of a line: hclwrite's `spaceAfterToken` rule for
 * rule, so `svc fmt` lays expressions out as `terraform fmt` does (`a = b.c[0]`, `f(a, b...)`,
 * `a ? b : -c`, `!x`, `{ a = 1 }`, `[for x in xs : x]`, `"${x}"`).
 *
 * One addition: hclwrite glues a number to a following dot, and `a.0 .1` (steps 0 and 1) would become
 * `a.0.1`, which scans as the number `0.1`. Here a space stays between a number and a dot when the
 * token after the dot could continue the number.
 */
import { T } from '../tokens.js';
import { bracketChange } from './lines.js';
import type { FmtToken } from './tokens.js';

/** `before` is undefined at the start of a cell, `next` after `after` at its end. */
export function spaceAfter(subject: FmtToken, before: FmtToken | undefined, after: FmtToken, next: FmtToken | undefined): boolean {
  const s = subject.type;
  const a = after.type;
  if (a === T.Newline) return false; // never a space before a newline
  if (s === T.Ident && a === T.OParen) return false; // f(x)
  if ((s === T.Ident && a === T.DoubleColon) || (s === T.DoubleColon && a === T.Ident)) return false; // provider::ns::f()
  if (s === T.NumberLit && a === T.Dot && next !== undefined && /^[0-9eE]/.test(next.text)) return true;
  if (s === T.Dot || a === T.Dot) return false; // a.b
  if (a === T.Comma || a === T.Ellipsis) return false;
  if (s === T.Comma) return true;
  if (s === T.QuotedLit || s === T.StringLit || s === T.OQuote || s === T.OHeredoc) return false; // template text is kept
  if (a === T.QuotedLit || a === T.StringLit || a === T.CQuote || a === T.CHeredoc) return false;
  // `[for x in [y] : x]`: `in` is a keyword here, not a value being indexed.
  if (s === T.Ident && subject.text === 'in' && before?.type === T.Ident) return true;
  if (a === T.OBrack && (s === T.Ident || s === T.NumberLit || bracketChange(subject) < 0)) return false; // a[0], f()[0]
  if (s === T.Bang) return false;
  if (s === T.Minus) return !isNegation(before);
  if (s === T.OBrace || a === T.CBrace) return !(s === T.OBrace && a === T.CBrace); // { a = 1 }, but {}
  // `${ {a = 1} }`: an object alone in an interpolation keeps its braces apart from the sequence's.
  if ((s === T.TemplateInterp || s === T.TemplateControl) && a === T.OBrace) return true;
  if (s === T.CBrace && a === T.TemplateSeqEnd) return true;
  if (s === T.TemplateSeqEnd && (a === T.TemplateInterp || a === T.TemplateControl)) return false; // ${a}${b}
  if (bracketChange(subject) > 0) return false; // (a
  if (bracketChange(after) < 0) return false; // a)
  return true;
}

/** hclwrite's guess that a minus negates: it follows nothing that could end an operand. */
function isNegation(before: FmtToken | undefined): boolean {
  if (before === undefined) return true;
  switch (before.type) {
    case T.OParen:
    case T.OBrace:
    case T.OBrack:
    case T.Equal:
    case T.Colon:
    case T.Comma:
    case T.Question:
    case T.Plus:
    case T.Star:
    case T.Slash:
    case T.Percent:
    case T.Minus:
    case T.EqualOp:
    case T.NotEqual:
    case T.GreaterThan:
    case T.GreaterThanEq:
    case T.LessThan:
    case T.LessThanEq:
    case T.And:
    case T.Or:
    case T.Bang:
      return true;
    default:
      return false;
  }
}
