/**
 * Decoding of template literal text (hclsyntax ParseStringLiteralToken + scan_string_lit.rl):
 * backslash escapes in quoted strings, and `$${` / `%%{` (literal `${` / `%{`) everywhere.
 * Each bad escape gets a diagnostic whose range is exactly the escape sequence.
 */
import type { Diagnostic, Pos } from '../diag/index.js';
import { Cursor } from './cursor.js';

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/**
 * Decodes src[s, e), whose first character is at `start`. Appends diagnostics to `diags`.
 * Unquoted text (heredocs, bare templates) only knows `$${` and `%%{`.
 */
export function decodeLiteral(src: string, s: number, e: number, start: Pos, filename: string, quoted: boolean, diags: Diagnostic[]): string {
  // Fast path: nothing to decode.
  let i = s;
  for (; i < e; i++) {
    const c = src.charCodeAt(i);
    if ((c === 0x5c && quoted) || ((c === 0x24 || c === 0x25) && src.charCodeAt(i + 1) === c)) break;
  }
  if (i >= e) return src.slice(s, e);

  const out: string[] = [];
  let litStart = s;
  // Position tracking for diagnostics, advanced lazily.
  const cur = new Cursor(src, s, start.line, start.column, start.byte);
  const posAt = (to: number): Pos => {
    cur.advanceTo(to);
    return cur.pos();
  };
  const bad = (from: number, to: number, detail: string): void => {
    const a = posAt(from);
    const b = posAt(to);
    diags.push({ severity: 'error', summary: 'Invalid escape sequence', detail, subject: { filename, start: a, end: b } });
  };

  while (i < e) {
    const c = src.charCodeAt(i);
    if ((c === 0x24 || c === 0x25) && src.charCodeAt(i + 1) === c && i + 2 < e && src.charCodeAt(i + 2) === 0x7b) {
      // `$${` -> `${`. Scanned left to right one `$` at a time like hclsyntax, so `$$${` is `$${`.
      out.push(src.slice(litStart, i), c === 0x24 ? '${' : '%{');
      i += 3;
      litStart = i;
      continue;
    }
    if (c !== 0x5c || !quoted) {
      i++;
      continue;
    }
    // A backslash escape.
    out.push(src.slice(litStart, i));
    const sel = i + 1 < e ? src.charCodeAt(i + 1) : -1;
    if (sel < 0) {
      bad(i, i + 1, 'Backslash must be followed by an escape sequence selector character.');
      out.push('\\');
      i++;
      litStart = i;
      continue;
    }
    switch (sel) {
      case 0x6e:
        out.push('\n');
        i += 2;
        litStart = i;
        continue; // n
      case 0x72:
        out.push('\r');
        i += 2;
        litStart = i;
        continue; // r
      case 0x74:
        out.push('\t');
        i += 2;
        litStart = i;
        continue; // t
      case 0x22:
        out.push('"');
        i += 2;
        litStart = i;
        continue; // "
      case 0x5c:
        out.push('\\');
        i += 2;
        litStart = i;
        continue; // \
      case 0x75: // u
      case 0x55: {
        // U
        const want = sel === 0x75 ? 4 : 8;
        let j = i + 2;
        while (j < e && j < i + 2 + want && isHex(src.charCodeAt(j))) j++;
        if (j - (i + 2) !== want) {
          bad(
            i,
            j,
            sel === 0x75
              ? 'The \\u escape sequence must be followed by four hexadecimal digits.'
              : 'The \\U escape sequence must be followed by eight hexadecimal digits.',
          );
          out.push(src.slice(i, j));
          i = j;
          litStart = i;
          continue;
        }
        const cp = parseInt(src.slice(i + 2, j), 16);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
          bad(i, j, `Cannot encode character U+${cp.toString(16).padStart(4, '0')} in UTF-8.`);
          out.push(src.slice(i, j));
        } else {
          out.push(String.fromCodePoint(cp));
        }
        i = j;
        litStart = i;
        continue;
      }
      default: {
        // hclsyntax keeps the selector character without the backslash.
        const w = sel >= 0xd800 && sel <= 0xdbff ? 2 : 1;
        bad(i, i + 1 + w, `The symbol ${JSON.stringify(src.slice(i + 1, i + 1 + w))} is not a valid escape sequence selector.`);
        out.push(src.slice(i + 1, i + 1 + w));
        i += 1 + w;
        litStart = i;
        continue;
      }
    }
  }
  out.push(src.slice(litStart, e));
  return out.join('');
}
