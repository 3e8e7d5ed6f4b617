/**
 * Source positions over UTF-16 text: the scanner's token positions and the escape decoder's
 * diagnostic ranges both advance one of these. Columns count code points; bytes count UTF-8, with a
 * lone surrogate as three bytes (its U+FFFD replacement, as Buffer.byteLength counts it).
 */
import type { Pos } from '../diag/index.js';

export class Cursor {
  constructor(
    private readonly src: string,
    /** UTF-16 index the position below belongs to. */
    public idx: number,
    public line: number,
    public column: number,
    public byte: number,
  ) {}

  /** Moves forward to UTF-16 index `to` (past it when `to` splits a surrogate pair). */
  advanceTo(to: number): void {
    const src = this.src;
    const n = src.length;
    let line = this.line,
      col = this.column,
      byte = this.byte,
      k = this.idx;
    while (k < to) {
      const c = src.charCodeAt(k++);
      if (c < 0x80) {
        byte++;
        if (c === 0x0a) {
          line++;
          col = 1;
        } else col++;
      } else if (c < 0x800) {
        byte += 2;
        col++;
      } else if (c >= 0xd800 && c <= 0xdbff && k < n && (src.charCodeAt(k) & 0xfc00) === 0xdc00) {
        byte += 4;
        col++;
        k++;
      } else {
        byte += 3;
        col++;
      }
    }
    this.idx = k;
    this.line = line;
    this.column = col;
    this.byte = byte;
  }

  pos(): Pos {
    return { line: this.line, column: this.column, byte: this.byte };
  }
}
