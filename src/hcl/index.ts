/**
 * HCL native syntax: public entry points (the equivalents of hclsyntax.ParseConfig,
 * ParseExpression and ParseTemplate). They never throw: problems come back as diagnostics, with a
 * syntax tree that is still structurally sound (unparseable expressions become `Literal` nodes
 * with `invalid: true`).
 */
import type { Diagnostic, Pos } from '../diag/index.js';
import type { Expression, File } from './ast.js';
import { checkInvalidTokens } from './lex-diagnostics.js';
import { parseBody } from './parser-body.js';
import { parseExpression as parseExpr } from './parser-expr.js';
import { ParserState } from './parser-state.js';
import { parseTemplateInner } from './parser-template.js';
import { scan } from './scanner.js';
import { T } from './tokens.js';

export * from './ast.js';
export { formatHcl, type FormatResult } from './format/index.js';

const START: Pos = { line: 1, column: 1, byte: 0 };

/** Parses a whole configuration file. */
export function parseFile(source: string, filename: string): { file: File; diagnostics: Diagnostic[] } {
  const tokens = scan(source, filename, START, 'normal');
  const p = new ParserState(source, filename, tokens);
  const body = parseBody(p, T.EOF);
  return { file: { filename, source, body }, diagnostics: [...checkInvalidTokens(source, tokens), ...p.diags] };
}

/**
 * Parses a standalone expression. Newlines are ignored, as if it were in parentheses. `start` is
 * the position of the first character when the text was cut from a larger file.
 */
export function parseExpression(source: string, filename: string, start: Pos = START): { expr: Expression; diagnostics: Diagnostic[] } {
  const tokens = scan(source, filename, start, 'normal');
  const p = new ParserState(source, filename, tokens);
  p.pushNewlines(false);
  const expr = parseExpr(p);
  const next = p.peek();
  if (next.type !== T.EOF && !p.recovery) {
    p.error('Extra characters after expression', 'An expression was successfully parsed, but extra characters were found after it.', next.range);
  }
  p.popNewlines();
  return { expr, diagnostics: [...checkInvalidTokens(source, tokens), ...p.diags] };
}

/** Parses a bare template (text with `${}` and `%{}` sequences, no surrounding quotes). */
export function parseTemplate(source: string, filename: string, start: Pos = START): { expr: Expression; diagnostics: Diagnostic[] } {
  const tokens = scan(source, filename, start, 'template');
  const p = new ParserState(source, filename, tokens);
  const first = p.peek().range;
  const { parts } = parseTemplateInner(p, T.EOF, false);
  const last = p.prevRange();
  const expr: Expression = {
    kind: 'Template',
    parts,
    heredoc: false,
    range: { filename, start: first.start, end: last.end },
  };
  return { expr, diagnostics: [...checkInvalidTokens(source, tokens), ...p.diags] };
}
