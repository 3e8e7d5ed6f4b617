/**
 * Annotated fixture files: the expected diagnostic is written as a comment on the line where it
 * must point, e.g.
 *
 *     colour = "x"   # error: Unsupported argument (did you mean "color")
 *
 * Several may share a line (`# error: A # warning: B`). In place of the summary an annotation may give
 * the diagnostic's code (`# error: SVC_MANIFEST_UNSUPPORTED_ARGUMENT`, catalogued in src/diag/codes.ts).
 * `checkAnnotations` returns the mismatches: annotations no diagnostic satisfies, and diagnostics no
 * annotation expects.
 */
import { codeOf, type Diagnostic } from '../../src/diag/index.js';

export interface Annotation {
  readonly line: number;
  readonly severity: 'error' | 'warning';
  /** The expected summary, or the expected code. */
  readonly summary: string;
  readonly suggestion?: string;
}

const START = /#\s*(?:error|warning):/;
const ONE = /(error|warning):\s*(.+?)\s*(?:\(did you mean "([^"]*)"\))?\s*(?=#\s*(?:error|warning):|$)/g;

export function parseAnnotations(source: string): Annotation[] {
  const out: Annotation[] = [];
  source.split('\n').forEach((text, i) => {
    const at = text.search(START);
    if (at < 0) return;
    for (const m of text.slice(at).matchAll(ONE)) {
      out.push({
        line: i + 1,
        severity: m[1] as 'error' | 'warning',
        summary: m[2]!.replace(/\s*#\s*$/, ''),
        ...(m[3] !== undefined ? { suggestion: m[3] } : {}),
      });
    }
  });
  return out;
}

export function checkAnnotations(annotations: readonly Annotation[], diagnostics: readonly Diagnostic[], filename: string): string[] {
  const problems: string[] = [];
  const unused = [...diagnostics];
  for (const a of annotations) {
    const i = unused.findIndex(
      (d) =>
        d.subject?.filename === filename &&
        d.subject.start.line === a.line &&
        d.severity === a.severity &&
        (d.summary === a.summary || codeOf(d) === a.summary) &&
        (a.suggestion === undefined || d.suggestion === a.suggestion),
    );
    if (i < 0) {
      const near = diagnostics.filter((d) => d.subject?.start.line === a.line).map(show);
      problems.push(
        `line ${a.line}: expected ${a.severity} "${a.summary}"${a.suggestion ? ` (did you mean "${a.suggestion}")` : ''}; on that line: ${near.length ? near.join(' | ') : 'nothing'}`,
      );
    } else unused.splice(i, 1);
  }
  for (const d of unused) problems.push(`unexpected: ${show(d)}`);
  return problems;
}

function show(d: Diagnostic): string {
  return `${d.subject ? `line ${d.subject.start.line}: ` : ''}${d.severity} "${d.summary}" [${codeOf(d) ?? 'no code'}]${d.suggestion ? ` (did you mean "${d.suggestion}")` : ''}${d.detail ? ` — ${d.detail}` : ''}`;
}
