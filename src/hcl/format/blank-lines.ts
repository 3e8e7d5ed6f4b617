/**
 * Blank lines, where svc fmt is stricter than `terraform fmt` (which keeps them as written):
 * none at the start or the end of the file, never two in a row, and exactly one between two
 * top-level items when either is a block. The file ends with one newline.
 *
 * Only lines outside heredocs can be blank here: a heredoc's empty lines are part of its text, which
 * is one formatter line with the attribute it belongs to.
 */
import { T } from '../tokens.js';
import { isBlank, type FormatLine } from './lines.js';
import { COMMENT, endsLine, type FmtToken } from './tokens.js';

/** A top-level attribute or block: its first and last source lines. */
export interface TopLevelItem {
  readonly startLine: number;
  readonly endLine: number;
  readonly isBlock: boolean;
}

export function normalizeBlankLines(lines: readonly FormatLine[], items: readonly TopLevelItem[]): FormatLine[] {
  const separateAfter = separations(lines, items);
  const out: FormatLine[] = [];
  lines.forEach((line, i) => {
    if (line.lead.length === 0) return; // what follows the last newline: nothing
    if (isBlank(line)) {
      if (out.length > 0 && !isBlank(out[out.length - 1]!)) out.push(line);
    } else {
      out.push(line);
      if (separateAfter.has(i)) out.push(blankLine(newlineOf(line)));
    }
  });
  while (out.length > 0 && isBlank(out[out.length - 1]!)) out.pop();
  const last = out[out.length - 1];
  if (last !== undefined) endWithNewline(last, newlineOf(out[0]!));
  return out;
}

/** The lines after which a blank line must be added: between items of which one is a block, when none is there. */
function separations(lines: readonly FormatLine[], items: readonly TopLevelItem[]): Set<number> {
  // The source line each formatter line starts on: a heredoc or a multi-line comment spans several.
  const starts: number[] = [];
  let line = 1;
  for (const l of lines) {
    starts.push(line);
    for (const t of l.lead) for (let i = t.text.indexOf('\n'); i >= 0; i = t.text.indexOf('\n', i + 1)) line++;
  }
  const at = (sourceLine: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= sourceLine) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const out = new Set<number>();
  for (let k = 0; k + 1 < items.length; k++) {
    const a = items[k]!;
    const b = items[k + 1]!;
    if (!a.isBlock && !b.isBlock) continue;
    const from = at(a.endLine);
    const to = at(b.startLine);
    let blank = false;
    for (let i = from + 1; i < to && !blank; i++) blank = isBlank(lines[i]!);
    if (!blank) out.add(from);
  }
  return out;
}

function blankLine(newline: string): FormatLine {
  return { lead: [{ type: T.Newline, text: newline, spacesBefore: 0 }] };
}

/** The line break a line ends with, `\n` when it ends without one. */
function newlineOf(line: FormatLine): string {
  const last = line.lead[line.lead.length - 1]!;
  return endsLine(last) && last.text.endsWith('\r\n') ? '\r\n' : '\n';
}

function endWithNewline(line: FormatLine, newline: string): void {
  const lead = line.lead;
  const last = lead[lead.length - 1]!;
  if (endsLine(last)) return;
  if (last.type === COMMENT && !last.text.startsWith('/*')) {
    // A line comment takes its newline in, as the scanner reads it once the newline is there.
    lead[lead.length - 1] = { ...last, text: last.text + newline } satisfies FmtToken;
  } else {
    lead.push({ type: T.Newline, text: newline, spacesBefore: 0 });
  }
}
