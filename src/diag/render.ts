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
  out.push(`${d.severity === 'error' ? 'Error' : 'Warning'}: ${clip(d.summary, MAX_SUMMARY)}`);
  if (d.subject) {
    const where = d.path && d.path.length > 0 ? `, in ${clip(d.path.join(' > '), MAX_SUMMARY)}` : '';
    out.push('');
    out.push(`  on ${d.subject.filename} line ${d.subject.start.line}${where}:`);
    const text = sources.get(d.subject.filename);
    if (text !== undefined) out.push(...snippet(text, d));
  } else if (d.path && d.path.length > 0) {
    out.push('');
    out.push(`  in ${clip(d.path.join(' > '), MAX_SUMMARY)}`);
  }
  const detail = [d.detail, d.suggestion !== undefined ? `Did you mean "${d.suggestion}"?` : undefined].filter((s): s is string => !!s).join(' ');
  if (detail) {
    out.push('');
    out.push(clip(detail, MAX_DETAIL));
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

/**
 * Rendered text is kept readable whatever the manifest holds (issue 15): a line of the snippet shows
 * at most MAX_SNIPPET characters around the marked span, and a summary, block path or detail longer
 * than its bound (a megabyte-long pattern quoted in a message) is cut, saying how much was left out.
 * `--diagnostics=json` keeps the full text.
 */
const MAX_SNIPPET = 120;
/** Characters of the line shown before the span when the line is cut. */
const SNIPPET_LEAD = 30;
const MAX_SUMMARY = 300;
const MAX_DETAIL = 2000;
const ELLIPSIS = '…';

/** `s` cut to `max` characters (never inside a surrogate pair), with the count of what was left out. */
function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${s.slice(0, end)}${ELLIPSIS} (${(s.length - end).toLocaleString('en-US')} more characters)`;
}

/** The characters of the line rendered last, for many diagnostics on one (long) line. */
let cachedLine: { line: string; chars: string[] } | undefined;

function charsOf(line: string): string[] {
  if (cachedLine?.line !== line) cachedLine = { line, chars: Array.from(line) };
  return cachedLine.chars;
}

function snippet(text: string, d: Diagnostic): string[] {
  const subject = d.subject!;
  const lines = linesOf(text);
  const lineNo = subject.start.line;
  const line = (lines[lineNo - 1] ?? '').replace(/\r$/, '');
  const gutter = `${String(lineNo).padStart(4)}: `;
  const chars = charsOf(line);
  const startCol = Math.max(1, subject.start.column);
  // A span running onto later lines is marked to the end of its first line.
  const endCol = Math.min(subject.end.line === lineNo ? Math.max(subject.end.column, startCol + 1) : chars.length + 1, chars.length + 1);
  // The window of the line shown: all of it when short, else from a little before the span.
  let from = 0;
  let to = chars.length;
  if (chars.length > MAX_SNIPPET) {
    from = Math.max(0, Math.min(startCol - 1 - SNIPPET_LEAD, chars.length - MAX_SNIPPET));
    to = from + MAX_SNIPPET;
  }
  const head = from > 0 ? ELLIPSIS : '';
  const tail = to < chars.length ? ELLIPSIS : '';
  const shown = chars.slice(from, to);
  const markFrom = Math.max(startCol - 1, from);
  const markTo = Math.min(Math.max(endCol - 1, markFrom + 1), to);
  const prefix =
    ' '.repeat(head.length) +
    shown
      .slice(0, markFrom - from)
      .map((c) => (c === '\t' ? '\t' : ' '))
      .join('');
  const marks = '^'.repeat(Math.max(1, markTo - markFrom));
  return [`${gutter}${head}${shown.join('')}${tail}`, `${' '.repeat(gutter.length)}${prefix}${marks}`];
}
