/**
 * Commas between a block's arguments (`field "id" { type = int, required = true }`), which hclapi's
 * own parser accepts and HCL does not. Each such comma becomes a newline (and a one-line block gets
 * newlines inside its braces), replacing a byte by a byte wherever it can, so every offset and
 * column of the file stays where it was and only line numbers move, which the loader maps back.
 */
import type { Diagnostic } from '../../diag/index.js';
import { parseFile } from '../../hcl/index.js';
import { PositionMap } from './edit.js';

const COMMA_ERRORS = new Set(['Unexpected comma after argument', 'Invalid single-argument block definition']);

/** At most this many commas are repaired in one file (each costs a parse). */
const MAX_REPAIRS = 200;

export interface Repaired {
  readonly source: string;
  /** One warning per comma, at its place in the original text. */
  readonly warnings: Diagnostic[];
}

export function repairCommas(source: string, filename: string): Repaired {
  const warnings: Diagnostic[] = [];
  // Offsets never move, so a position of the repaired text is the same byte of the original one.
  const original = new PositionMap(source, []);
  let bytes = Buffer.from(source, 'utf8');
  for (let i = 0; i < MAX_REPAIRS; i++) {
    const { diagnostics } = parseFile(bytes.toString('utf8'), filename);
    const d = diagnostics.find((x) => x.severity === 'error' && COMMA_ERRORS.has(x.summary) && x.subject && bytes[x.subject.start.byte] === 0x2c);
    if (!d?.subject) break;
    const at = d.subject.start.byte;
    const next = Buffer.from(bytes);
    next[at] = 0x0a;
    if (d.summary === 'Invalid single-argument block definition') {
      // The block opened on this line: its brace's following space and its closing brace's preceding one become newlines.
      const lineStart = next.lastIndexOf(0x0a, at - 1) + 1;
      const open = next.lastIndexOf(0x7b, at);
      const close = next.indexOf(0x7d, at);
      const lineEnd = next.indexOf(0x0a, at + 1);
      if (open < lineStart || close < 0 || (lineEnd >= 0 && close > lineEnd)) break;
      if (next[open + 1] !== 0x20 || next[close - 1] !== 0x20) break;
      next[open + 1] = 0x0a;
      next[close - 1] = 0x0a;
    }
    bytes = next;
    warnings.push({
      severity: 'warning',
      summary: 'hclapi comma between arguments',
      subject: original.range(d.subject),
      detail:
        "HCL separates the arguments of a block by newlines; the comma is read as one (hclapi's parser allows it). svc fmt --fix writes one argument per line.",
    });
  }
  return { source: bytes.toString('utf8'), warnings };
}
