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

/**
 * At most this many passes over one file. A pass repairs every comma the parse reported (the first
 * of each block: the parser resumes after the block), so a block with N commas takes N passes.
 */
const MAX_PASSES = 20;

export interface Repaired {
  readonly source: string;
  /** One warning per comma, at its place in the original text. */
  readonly warnings: Diagnostic[];
}

/** Whether a parse's diagnostics include a comma between arguments (repairCommas then has work). */
export function hasArgumentCommas(diagnostics: readonly Diagnostic[], source: string): boolean {
  return commaErrors(diagnostics, Buffer.from(source, 'utf8')).length > 0;
}

function commaErrors(diagnostics: readonly Diagnostic[], bytes: Buffer): Diagnostic[] {
  return diagnostics.filter((x) => x.severity === 'error' && COMMA_ERRORS.has(x.summary) && x.subject && bytes[x.subject.start.byte] === 0x2c);
}

export function repairCommas(source: string, filename: string): Repaired {
  const warnings: Diagnostic[] = [];
  // Offsets never move, so a position of the repaired text is the same byte of the original one.
  const original = new PositionMap(source, []);
  let bytes = Buffer.from(source, 'utf8');
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const found = commaErrors(parseFile(bytes.toString('utf8'), filename).diagnostics, bytes);
    if (found.length === 0) break;
    const next = Buffer.from(bytes);
    let repaired = 0;
    for (const d of found) {
      const at = d.subject!.start.byte;
      if (d.summary === 'Invalid single-argument block definition' && !openOneLineBlock(next, at)) continue;
      next[at] = 0x0a;
      repaired++;
      warnings.push({
        severity: 'warning',
        summary: 'hclapi comma between arguments',
        subject: original.range(d.subject!),
        detail:
          "HCL separates the arguments of a block by newlines; the comma is read as one (hclapi's parser allows it). svc fmt --fix writes one argument per line.",
      });
    }
    if (repaired === 0) break;
    bytes = next;
  }
  return { source: bytes.toString('utf8'), warnings };
}

/**
 * A one-line block (`field "a" { type = string, required = true }`) made multi-line: the space after
 * its opening brace and the one before its closing brace become newlines. False when the block is
 * not written so (then the comma is left for the parser to report).
 */
function openOneLineBlock(bytes: Buffer, comma: number): boolean {
  const lineStart = bytes.lastIndexOf(0x0a, comma - 1) + 1;
  const open = bytes.lastIndexOf(0x7b, comma);
  const close = bytes.indexOf(0x7d, comma);
  const lineEnd = bytes.indexOf(0x0a, comma + 1);
  if (open < lineStart || close < 0 || (lineEnd >= 0 && close > lineEnd)) return false;
  if (bytes[open + 1] !== 0x20 || bytes[close - 1] !== 0x20) return false;
  bytes[open + 1] = 0x0a;
  bytes[close - 1] = 0x0a;
  return true;
}
