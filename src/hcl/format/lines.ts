/**
 * The formatter's lines (hclwrite's `linesForFormat`): the tokens cut after each newline, each line in
 * up to three cells aligned with its neighbours: `lead`, `assign` (from the `=` of an attribute whose
 * value ends on the line) and a trailing `comment`. A heredoc's lines hold no newline token, so it
 * and its attribute are one formatter line: its text is never re-indented.
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
