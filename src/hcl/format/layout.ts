/**
 * The three passes of hclwrite's `format`, which set `spacesBefore` and nothing else: `indent` (two
 * spaces per bracket still open at a line's start), `space` (between a cell's tokens, spacing.ts) and
 * `align` (the `=` and trailing comments of consecutive lines one space after the longest; a line
 * without one ends the run).
 */
import { T } from '../tokens.js';
import { bracketChange, type FormatLine } from './lines.js';
import { spaceAfter } from './spacing.js';
import type { FmtToken } from './tokens.js';

export function indent(lines: readonly FormatLine[]): void {
  // Each entry is how many brackets a line opened; a closing line pops as many as it closes, so
  // brackets that do not pair up line by line (`[[` ... `]]`) indent once, not twice.
  const open: number[] = [];
  // Heredocs open and not yet closed. Brackets inside one (in its `${ }` sequences) do not count:
  // hclwrite stops counting at `<<EOT` but counts on the next lines, so an interpolation that spans
  // lines closed brackets it never opened and shifted the rest of the file to the left.
  let heredocs = 0;
  for (const line of lines) {
    const first = line.lead[0];
    if (first === undefined) continue;
    let net = 0;
    for (const t of [...line.lead, ...(line.assign ?? [])]) {
      if (t.type === T.OHeredoc) heredocs++;
      else if (t.type === T.CHeredoc) heredocs--;
      else if (heredocs === 0) net += bracketChange(t);
    }
    if (first.type === T.Newline) {
      first.spacesBefore = 0;
      continue;
    }
    if (net > 0) {
      first.spacesBefore = 2 * open.length;
      open.push(net);
      continue;
    }
    let closed = -net;
    while (closed > 0 && open.length > 0) {
      const top = open[open.length - 1]!;
      if (closed >= top) {
        closed -= top;
        open.pop();
      } else {
        open[open.length - 1] = top - closed;
        closed = 0;
      }
    }
    first.spacesBefore = 2 * open.length;
  }
}

export function space(lines: readonly FormatLine[]): void {
  for (const line of lines) {
    spaceCell(line.lead);
    if (line.assign) {
      line.assign[0]!.spacesBefore = 1;
      spaceCell(line.assign);
    }
  }
}

function spaceCell(cell: readonly FmtToken[]): void {
  for (let i = 0; i + 1 < cell.length; i++) {
    cell[i + 1]!.spacesBefore = spaceAfter(cell[i]!, cell[i - 1], cell[i + 1]!, cell[i + 2]) ? 1 : 0;
  }
}

export function align(lines: readonly FormatLine[]): void {
  alignRuns(
    lines,
    (l) => l.assign,
    (l) => columns(l.lead),
  );
  alignRuns(
    lines,
    (l) => l.comment,
    (l) => columns(l.lead) + columns(l.assign ?? []),
  );
}

function alignRuns(lines: readonly FormatLine[], cell: (l: FormatLine) => FmtToken[] | undefined, width: (l: FormatLine) => number): void {
  let start = -1;
  let widest = 0;
  const close = (end: number): void => {
    for (let k = start; k < end; k++) cell(lines[k]!)![0]!.spacesBefore = widest - width(lines[k]!) + 1;
    start = -1;
    widest = 0;
  };
  lines.forEach((line, i) => {
    if (cell(line) === undefined) {
      if (start >= 0) close(i);
      return;
    }
    if (start < 0) start = i;
    widest = Math.max(widest, width(line));
  });
  if (start >= 0) close(lines.length);
}

/** The columns a cell takes: its spaces and its text, in grapheme clusters as hclwrite counts them. */
function columns(cell: readonly FmtToken[]): number {
  let n = 0;
  for (const t of cell) n += t.spacesBefore + textColumns(t.text);
  return n;
}

let graphemes: Intl.Segmenter | undefined;

function textColumns(text: string): number {
  if (/^[\x00-\x7f]*$/.test(text)) return text.length;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}
