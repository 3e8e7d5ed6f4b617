import { codeOf } from './codes.js';
import type { Diagnostic } from './diagnostic.js';

/** Source texts by file name, used to print the line a diagnostic points at. */
export type SourceMap = ReadonlyMap<string, string>;

/**
 * Renders diagnostics the way HCL/Terraform does:
 *
 *     Error: Unsupported argument
 *
 *       on api.hcl line 3, in endpoint "GET /x" > pipeline:
 *        3:     colour = "red"
 *                ^^^^^^
 *
 *     An argument named "colour" is not expected here. Did you mean "color"?
 */
export function renderDiagnostic(d: Diagnostic, sources: SourceMap): string {
  const out: string[] = [];
  out.push(`${d.severity === 'error' ? 'Error' : 'Warning'}: ${d.summary}`);
  if (d.subject) {
    const where = d.path && d.path.length > 0 ? `, in ${d.path.join(' > ')}` : '';
    out.push('');
    out.push(`  on ${d.subject.filename} line ${d.subject.start.line}${where}:`);
    const text = sources.get(d.subject.filename);
    if (text !== undefined) out.push(...snippet(text, d));
  } else if (d.path && d.path.length > 0) {
    out.push('');
    out.push(`  in ${d.path.join(' > ')}`);
  }
  const detail = [d.detail, d.suggestion !== undefined ? `Did you mean "${d.suggestion}"?` : undefined].filter((s): s is string => !!s).join(' ');
  if (detail) {
    out.push('');
    out.push(detail);
  }
  return out.join('\n') + '\n';
}

export function renderDiagnostics(diags: Iterable<Diagnostic>, sources: SourceMap): string {
  return [...diags].map((d) => renderDiagnostic(d, sources)).join('\n');
}

/** The diagnostic as plain JSON, for `--diagnostics=json`. */
export function diagnosticToJSON(d: Diagnostic): Record<string, unknown> {
  const code = codeOf(d);
  return {
    severity: d.severity,
    ...(code !== undefined ? { code } : {}),
    summary: d.summary,
    ...(d.detail !== undefined ? { detail: d.detail } : {}),
    ...(d.subject ? { range: d.subject } : {}),
    ...(d.path ? { path: d.path } : {}),
    ...(d.suggestion !== undefined ? { suggestion: d.suggestion } : {}),
  };
}

/**
 * The lines of the text rendered last: a file with thousands of diagnostics must not be split once
 * per diagnostic (20 000 duplicate attributes in a 120 kB file took 13 s to render).
 */
let cached: { text: string; lines: string[] } | undefined;

function linesOf(text: string): string[] {
  if (cached?.text !== text) cached = { text, lines: text.split('\n') };
  return cached.lines;
}

function snippet(text: string, d: Diagnostic): string[] {
  const subject = d.subject!;
  const lines = linesOf(text);
  const lineNo = subject.start.line;
  const line = (lines[lineNo - 1] ?? '').replace(/\r$/, '');
  const gutter = `${String(lineNo).padStart(4)}: `;
  const chars = Array.from(line);
  const startCol = Math.max(1, subject.start.column);
  // A span running onto later lines is marked to the end of its first line.
  const endCol = subject.end.line === lineNo ? Math.max(subject.end.column, startCol + 1) : chars.length + 1;
  const prefix = chars
    .slice(0, startCol - 1)
    .map((c) => (c === '\t' ? '\t' : ' '))
    .join('');
  const marks = '^'.repeat(Math.max(1, Math.min(endCol, chars.length + 1) - startCol));
  return [`${gutter}${line}`, `${' '.repeat(gutter.length)}${prefix}${marks}`];
}
