/**
 * Flush heredocs (`<<-EOT`): port of hclsyntax flushHeredocTemplateParts.
 *
 * The rule works on the template's literal pieces before they are melded: find the line-leading
 * literal with the fewest leading whitespace characters (blank lines do not count, a line that
 * starts with an interpolation counts as zero) and remove that many characters from every
 * line-leading literal. Interpolated values are never trimmed.
 */
import type { Range } from '../diag/index.js';
import { isSpace } from './chars.js';

export interface FlatLiteral {
  readonly k: 'lit';
  value: string;
  range: Range;
}

export interface FlatOther {
  readonly k: 'interp' | 'if' | 'for' | 'endctl' | 'end';
}

export function flushHeredoc(parts: ReadonlyArray<FlatLiteral | FlatOther>): void {
  let minSpaces = Infinity;
  let newline = true;
  const adjust: FlatLiteral[] = [];
  for (const part of parts) {
    if (newline) {
      newline = false;
      let spaces = 0;
      if (part.k === 'lit') {
        const lit = part as FlatLiteral;
        const v = lit.value;
        let i = 0;
        let count = 0;
        while (i < v.length && isSpace(v.charCodeAt(i))) {
          i++;
          count++;
        }
        if (i === v.length && v.endsWith('\n')) {
          spaces = Infinity; // a blank line does not count
        } else {
          spaces = count;
          adjust.push(lit);
        }
      } else if (part.k === 'end') {
        break;
      }
      if (spaces < minSpaces) minSpaces = spaces;
    }
    if (part.k === 'lit' && (part as FlatLiteral).value.endsWith('\n')) newline = true;
  }
  if (!Number.isFinite(minSpaces) || minSpaces === 0) return;

  for (const lit of adjust) {
    // Whitespace characters are single UTF-16 units (all of Go's IsSpace set is in the BMP).
    const removed = lit.value.slice(0, minSpaces);
    lit.value = lit.value.slice(minSpaces);
    const { start } = lit.range;
    lit.range = {
      ...lit.range,
      start: { line: start.line, column: start.column + minSpaces, byte: start.byte + utf8Length(removed) },
    };
  }
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  return n;
}
