/**
 * Where a place of a query's text is in the manifest: PostgreSQL's error `position` (1-based, into the
 * statement as parsed, `$n` for `@name`) back to a line and column of the file. Value and source are
 * walked side by side, the source skipping what its syntax took out (a `<<-` heredoc's indentation,
 * backslash escapes, `$${`, `%%{`); a template that is not a plain string answers its own start.
 */
import type { Pos, Range } from '../../diag/index.js';
import type { PlaceholderStyle } from '../../connectors/index.js';
import { positionalOrigins } from './parameters.js';

/** Where the query is written: the range of its string, and the text of the file. */
export interface QuerySource {
  readonly range: Range;
  readonly text: string;
}

/**
 * The manifest position of PostgreSQL's `position` (1-based, in characters) in the positional text
 * of `query` (or in the text of another placeholder `style`, where SQLite's and MySQL's refusals
 * are located), or undefined when it falls outside the query.
 */
export function statementPosition(
  query: string,
  parameters: readonly string[],
  position: number,
  source: QuerySource,
  style: PlaceholderStyle = 'dollar',
): Pos | undefined {
  const { text, origins } = positionalOrigins(query, parameters, style);
  const index = codePointIndex(text, position - 1);
  if (index === undefined) return undefined;
  const offset = index < origins.length ? origins[index]! : query.length;
  return valuePosition(query, offset, source);
}

/** The UTF-16 index of the `n`th code point (0-based) of `text`; its length for one past the end. */
function codePointIndex(text: string, n: number): number | undefined {
  if (n < 0) return undefined;
  let i = 0;
  for (let k = 0; k < n; k++) {
    if (i >= text.length) return undefined;
    i += text.codePointAt(i)! > 0xffff ? 2 : 1;
  }
  return i <= text.length ? i : undefined;
}

/** The manifest position of `value[offset]`. */
export function valuePosition(value: string, offset: number, source: QuerySource): Pos {
  const { range } = source;
  const written = sliceBytes(source.text, range.start.byte, range.end.byte);
  const walker = new Walker(written, range.start);
  let quoted = false;
  if (written.startsWith('<<')) {
    // The heredoc's lines start after the opener's line.
    walker.skipTo(written.indexOf('\n') + 1);
  } else if (written.startsWith('"')) {
    quoted = true;
    walker.skipTo(1);
  } else return range.start;
  for (const c of value.slice(0, offset)) {
    if (!walker.match(c, quoted, true)) return range.start;
  }
  // Up to the character itself, past indentation the value does not hold.
  const at = String.fromCodePoint(value.codePointAt(offset) ?? 0x0a);
  return offset < value.length && !walker.match(at, quoted, false) ? range.start : walker.pos();
}

/** A cursor over the written string, counting lines, columns (code points) and UTF-8 bytes. */
class Walker {
  private i = 0;
  private line: number;
  private column: number;
  private byte: number;

  constructor(
    private readonly src: string,
    start: Pos,
  ) {
    this.line = start.line;
    this.column = start.column;
    this.byte = start.byte;
  }

  pos(): Pos {
    return { line: this.line, column: this.column, byte: this.byte };
  }

  skipTo(index: number): void {
    while (this.i < index && this.i < this.src.length) this.advance(1);
  }

  /**
   * Moves to the source of value character `c` (a code point), skipping what the value lost, and past
   * it when `consume`; false when it cannot.
   */
  match(c: string, quoted: boolean, consume: boolean): boolean {
    const src = this.src;
    for (;;) {
      if (this.i >= src.length) return false;
      const s = String.fromCodePoint(src.codePointAt(this.i)!);
      if ((s === '$' || s === '%') && src[this.i + 1] === s && src[this.i + 2] === '{') {
        // `$${` is `${`: the doubled character is not in the value.
        this.advance(1);
        continue;
      }
      if (s === c && !(quoted && s === '\\')) {
        if (consume) this.advance(1);
        return true;
      }
      if (quoted && s === '\\') {
        const length = escapeLength(src, this.i);
        if (decodeEscape(src.slice(this.i, this.i + length)) !== c) return false;
        if (consume) this.advance(length);
        return true;
      }
      // A flush heredoc's removed indentation: whitespace the value does not have.
      if (!quoted && (s === ' ' || s === '\t') && this.atLineStart()) {
        this.advance(1);
        continue;
      }
      return false;
    }
  }

  private atLineStart(): boolean {
    for (let k = this.i - 1; k >= 0; k--) {
      const s = this.src[k]!;
      if (s === '\n') return true;
      if (s !== ' ' && s !== '\t') return false;
    }
    return true;
  }

  private advance(n: number): void {
    for (let k = 0; k < n && this.i < this.src.length; k++) {
      const code = this.src.codePointAt(this.i)!;
      const units = code > 0xffff ? 2 : 1;
      this.i += units;
      this.byte += code < 0x80 ? 1 : code < 0x800 ? 2 : code > 0xffff ? 4 : 3;
      if (code === 0x0a) {
        this.line++;
        this.column = 1;
      } else this.column++;
    }
  }
}

function escapeLength(src: string, i: number): number {
  const sel = src[i + 1];
  if (sel === 'u') return 6;
  if (sel === 'U') return 10;
  return 2;
}

function decodeEscape(sequence: string): string | undefined {
  switch (sequence[1]) {
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'r':
      return '\r';
    case '"':
      return '"';
    case '\\':
      return '\\';
    case 'u':
    case 'U': {
      const code = Number.parseInt(sequence.slice(2), 16);
      return Number.isNaN(code) || code > 0x10ffff ? undefined : String.fromCodePoint(code);
    }
    default:
      return undefined;
  }
}

/** `text` between two UTF-8 byte offsets. */
function sliceBytes(text: string, start: number, end: number): string {
  return Buffer.from(text, 'utf8').subarray(start, end).toString('utf8');
}
