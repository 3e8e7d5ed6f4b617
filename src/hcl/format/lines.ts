/**
 * The formatter's lines (hclwrite's `linesForFormat`): the token stream cut after each newline, and
 * each line split into up to three cells whose first tokens are aligned with the neighbouring lines:
 *
 * - `lead`: everything up to one of the others (always present);
 * - `assign`: from the `=` of an attribute whose value ends on this line (a value that opens a
 *   bracket it does not close spans lines and is not aligned);
 * - `comment`: a line comment ending a line that holds something else.
 *
 * A heredoc is one token per line of its text, none of them a newline token, so a heredoc and the
 * attribute it belongs to make a single formatter line: its text is never re-indented.
 */
import { T } from '../tokens.js';
import { COMMENT, endsLine, type FmtToken } from './tokens.js';

export interface FormatLine {
  lead: FmtToken[];
  assign?: FmtToken[];
  comment?: FmtToken[];
}

/** +1 for a token that opens a bracket or a template sequence, -1 for one that closes it. */
export function bracketChange(t: FmtToken): number {
  switch (t.type) {
    case T.OBrace:
    case T.OBrack:
    case T.OParen:
    case T.TemplateControl:
    case T.TemplateInterp:
      return 1;
    case T.CBrace:
    case T.CBrack:
    case T.CParen:
    case T.TemplateSeqEnd:
      return -1;
    default:
      return 0;
  }
}

/** The lines of a token stream, all in `lead`; the last one is empty when the stream ends with a newline. */
export function splitLines(tokens: readonly FmtToken[]): FormatLine[] {
  const lines: FormatLine[] = [];
  let current: FmtToken[] = [];
  for (const t of tokens) {
    current.push(t);
    if (endsLine(t)) {
      lines.push({ lead: current });
      current = [];
    }
  }
  lines.push({ lead: current });
  return lines;
}

/** Moves a trailing line comment into `comment` and an attribute's `= value` into `assign`. */
export function splitCells(line: FormatLine): void {
  const lead = line.lead;
  if (lead.length > 1 && lead[lead.length - 1]!.type === COMMENT) {
    line.comment = lead.slice(-1);
    lead.pop();
  }
  for (let i = 1; i < lead.length; i++) {
    if (lead[i]!.type !== T.Equal) continue;
    let net = 0;
    for (let k = i; k < lead.length; k++) net += bracketChange(lead[k]!);
    if (net === 0) {
      line.assign = lead.splice(i);
    }
    break;
  }
}

/** Whether a line holds nothing but its newline. */
export function isBlank(line: FormatLine): boolean {
  return line.lead.length === 1 && line.lead[0]!.type === T.Newline && !line.assign && !line.comment;
}
