/**
 * Text edits of a manifest file and the way back: the compatibility rules say what to change as
 * edits of the original text (byte offsets, UTF-8, as the parser's ranges), so `svc fmt --fix` writes
 * exactly what the loader decodes. The loader decodes the edited text and maps every diagnostic's
 * range back to the original file, so a user reads positions in the file they wrote.
 */
import type { Diagnostic, Pos, Range } from '../../diag/index.js';

/** Replace bytes [start, end) of `filename` with `text`. */
export interface Edit {
  readonly filename: string;
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The edits of one file in order; an edit overlapping an earlier one is dropped (the earlier wins). */
export function orderedEdits(edits: readonly Edit[]): Edit[] {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Edit[] = [];
  for (const e of sorted) {
    const last = out.at(-1);
    // Two insertions at one place are both kept, in the order the rules gave them.
    if (last && e.start < last.end) continue;
    out.push(e);
  }
  return out;
}

/** `source` with the (ordered, non-overlapping) edits applied. */
export function applyEdits(source: string, edits: readonly Edit[]): string {
  const bytes = Buffer.from(source, 'utf8');
  const parts: Buffer[] = [];
  let at = 0;
  for (const e of edits) {
    parts.push(bytes.subarray(at, e.start), Buffer.from(e.text, 'utf8'));
    at = e.end;
  }
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts).toString('utf8');
}

/** Maps positions of the edited text back to the original text of one file. */
export class PositionMap {
  private readonly lineStarts: number[] = [0];
  private readonly bytes: Buffer;

  constructor(
    original: string,
    private readonly edits: readonly Edit[],
  ) {
    this.bytes = Buffer.from(original, 'utf8');
    for (let i = 0; i < this.bytes.length; i++) if (this.bytes[i] === 0x0a) this.lineStarts.push(i + 1);
  }

  /** The original byte offset of a byte offset of the edited text. */
  originalByte(edited: number): number {
    let delta = 0;
    for (const e of this.edits) {
      const newStart = e.start + delta;
      if (edited < newStart) break;
      const newEnd = newStart + Buffer.byteLength(e.text, 'utf8');
      // Inside replaced text: the whole replacement stands for what it replaced.
      if (edited < newEnd) return edited === newStart ? e.start : Math.max(e.start, Math.min(e.end, e.start + (edited - newStart)));
      delta += Buffer.byteLength(e.text, 'utf8') - (e.end - e.start);
    }
    return Math.min(this.bytes.length, Math.max(0, edited - delta));
  }

  pos(edited: Pos): Pos {
    const byte = this.originalByte(edited.byte);
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= byte) lo = mid;
      else hi = mid - 1;
    }
    const lineStart = this.lineStarts[lo]!;
    const column = [...this.bytes.subarray(lineStart, byte).toString('utf8')].length + 1;
    return { line: lo + 1, column, byte };
  }

  range(r: Range): Range {
    return { filename: r.filename, start: this.pos(r.start), end: this.pos(r.end) };
  }
}

/** The diagnostic with its ranges in the original files (files without edits are left as they are). */
export function remapDiagnostic(d: Diagnostic, maps: ReadonlyMap<string, PositionMap>): Diagnostic {
  const map = (r: Range | undefined): Range | undefined => (r ? (maps.get(r.filename)?.range(r) ?? r) : undefined);
  if (!d.subject && !d.context) return d;
  const subject = map(d.subject);
  const context = map(d.context);
  return { ...d, ...(subject ? { subject } : {}), ...(context ? { context } : {}) };
}
