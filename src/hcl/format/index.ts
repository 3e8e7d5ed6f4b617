/**
 * The canonical layout of an HCL file (`svc fmt`): hclwrite's formatter (what `terraform fmt` runs)
 * ported over our scanner's tokens, with stricter blank lines (blank-lines.ts). Only whitespace
 * between tokens changes; token texts and line endings stay as written. A file that does not parse
 * gets its diagnostics back; the result is checked against the input before it is returned (verify.ts).
 */
import type { Diagnostic } from '../../diag/index.js';
import type { File } from '../ast.js';
import { checkInvalidTokens } from '../lex-diagnostics.js';
import { parseBody } from '../parser-body.js';
import { ParserState } from '../parser-state.js';
import { scan } from '../scanner.js';
import { T } from '../tokens.js';
import { normalizeBlankLines, type TopLevelItem } from './blank-lines.js';
import { align, indent, space } from './layout.js';
import { splitCells, splitLines } from './lines.js';
import { formatTokens, type FmtToken } from './tokens.js';
import { sameTokens, sameTree } from './verify.js';

export type FormatResult =
  /** `text` is the formatted file; it equals the input when the input was already canonical. */
  | { readonly ok: true; readonly text: string }
  /** The file does not parse: nothing was formatted. */
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

const BOM = '\ufeff';

export function formatHcl(source: string, filename: string): FormatResult {
  const before = parseWithTokens(source, filename);
  if (before.diagnostics.some((d) => d.severity === 'error')) return { ok: false, diagnostics: before.diagnostics };

  const items: TopLevelItem[] = before.file.body.items.map((item) => ({
    startLine: item.range.start.line,
    endLine: item.range.end.line,
    isBlock: item.kind === 'Block',
  }));
  const lines = normalizeBlankLines(splitLines(before.tokens), items);
  for (const line of lines) splitCells(line);
  indent(lines);
  space(lines);
  align(lines);
  let text = source.startsWith(BOM) ? BOM : '';
  for (const line of lines) for (const t of [...line.lead, ...(line.assign ?? []), ...(line.comment ?? [])]) text += ' '.repeat(t.spacesBefore) + t.text;

  const after = parseWithTokens(text, filename);
  if (after.diagnostics.length > 0 || !sameTree(before.file, after.file) || !sameTokens(before.tokens, after.tokens)) {
    throw new Error(`formatting ${filename} would change what it means; it was left as it is`);
  }
  return { ok: true, text };
}

/**
 * parseFile (../index.ts), keeping the scanner's tokens, which the formatter lays out. It cannot call
 * parseFile itself: the package's index exports this module.
 */
function parseWithTokens(source: string, filename: string): { file: File; tokens: FmtToken[]; diagnostics: Diagnostic[] } {
  const tokens = scan(source, filename);
  const p = new ParserState(source, filename, tokens);
  const body = parseBody(p, T.EOF);
  const diagnostics = [...checkInvalidTokens(source, tokens), ...p.diags];
  const fmt = diagnostics.length > 0 ? [] : formatTokens(source, tokens, source.startsWith(BOM) ? 1 : 0);
  return { file: { filename, source, body }, tokens: fmt, diagnostics };
}
