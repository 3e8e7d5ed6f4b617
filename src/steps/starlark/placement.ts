/**
 * Where the lines of an inline program (`source = <<-EOT ... EOT` or a quoted string) lie in its
 * manifest file. The interpreter is given this table (`compileModule`'s `place`, on the event loop
 * and in each worker), so every position it reports is the manifest's own line and column: compile
 * errors, the top level's failure at boot, a `load` refused, the frames of a run-time error's
 * backtrace in the log. A program from `file = "x.star"` has no table: it keeps its file's lines.
 */
import type { Range } from '../../diag/index.js';
import type { LinePlace } from '../../starlark/index.js';

/**
 * The manifest position of each line of `source` (index 0: its line 1), read from the manifest's
 * text at `range`, the string expression's range; undefined when that text is not at hand.
 */
export function inlinePlacement(source: string, range: Range, manifest: string | undefined): LinePlace[] | undefined {
  if (manifest === undefined) return undefined;
  const manifestLines = manifest.split(/\r?\n/);
  const opening = codePoints(manifestLines[range.start.line - 1] ?? '').slice(range.start.column - 1);
  // the interpreter's own line breaks: \r\n, \r and \n (syntax/scanner.ts)
  const programLines = source.split(/\r\n|\r|\n/);
  if (opening[0] === '<' && opening[1] === '<') return heredocPlacement(programLines, manifestLines, range.start.line);
  if (opening[0] === '"') return quotedPlacement(opening, range.start);
  // Computed at boot (a function call): no line of the manifest holds the program's text, so every
  // position names the expression.
  return programLines.map(() => ({ line: range.start.line, column: range.start.column }));
}

/**
 * A heredoc's text starts on the line after `<<EOT`, one program line per manifest line. `<<-EOT`
 * strips the indentation its lines share, which shifts every column by that much: the shift is read
 * per line, as the part of the manifest line before the program's line, and where the two differ
 * (an escaped `$${` or `%%{`) the shift of the other lines applies.
 */
function heredocPlacement(programLines: readonly string[], manifestLines: readonly string[], openingLine: number): LinePlace[] {
  const shifts = programLines.map((text, i) => {
    const there = manifestLines[openingLine + i] ?? '';
    return text !== '' && there.endsWith(text) ? codePoints(there).length - codePoints(text).length : undefined;
  });
  const common = shifts.find((s) => s !== undefined) ?? 0;
  return programLines.map((_, i) => ({ line: openingLine + 1 + i, column: (shifts[i] ?? common) + 1 }));
}

/**
 * A quoted string is one manifest line; its program lines are separated by escapes (`\n`). Each
 * program line is placed at the column where its text begins, found by reading the escapes as HCL
 * does. Columns after another escape within a line are off by the escape's length (`\"`, `\t`).
 */
function quotedPlacement(opening: readonly string[], start: Range['start']): LinePlace[] {
  const places: LinePlace[] = [{ line: start.line, column: start.column + 1 }];
  let i = 1;
  while (i < opening.length && opening[i] !== '"') {
    const c = opening[i]!;
    if (c !== '\\') {
      i += c === '$' || c === '%' ? (opening[i + 1] === c && opening[i + 2] === '{' ? 3 : 1) : 1;
      continue;
    }
    const letter = opening[i + 1];
    const length = letter === 'u' ? 6 : letter === 'U' ? 10 : 2;
    // `\r\n` is one line break for the interpreter, as are `\r` and `\n` alone
    const crlf = letter === 'r' && opening[i + 2] === '\\' && opening[i + 3] === 'n';
    i += crlf ? 4 : length;
    if (letter === 'n' || letter === 'r') places.push({ line: start.line, column: start.column + i });
  }
  return places;
}

/** A string's code points: columns count them, in HCL and in Starlark. */
function codePoints(text: string): string[] {
  return Array.from(text);
}
