/** A manifest diagnostic as the public API shows it: plain data, the position flattened. */
import { codeOf, renderDiagnostics, type Diagnostic } from '../diag/index.js';

export interface ManifestDiagnostic {
  readonly severity: 'error' | 'warning';
  /** Stable code (`SVC_...`, docs/diagnostics.md), when the diagnostic has one. */
  readonly code?: string;
  readonly summary: string;
  readonly detail?: string;
  /** Where in the manifest: the file as the directory was given, 1-based line and column. */
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  /** A did-you-mean, when there is one. */
  readonly suggestion?: string;
}

export function publicDiagnostic(d: Diagnostic): ManifestDiagnostic {
  const code = codeOf(d);
  return {
    severity: d.severity === 'error' ? 'error' : 'warning',
    ...(code !== undefined ? { code } : {}),
    summary: d.summary,
    ...(d.detail !== undefined ? { detail: d.detail } : {}),
    ...(d.subject ? { file: d.subject.filename, line: d.subject.start.line, column: d.subject.start.column } : {}),
    ...(d.suggestion !== undefined ? { suggestion: d.suggestion } : {}),
  };
}

/** The diagnostics as `svc check` prints them (the lines of the manifest quoted). */
export function diagnosticsReport(diagnostics: readonly Diagnostic[], sources: ReadonlyMap<string, string>): string {
  return diagnostics.length === 0 ? '' : renderDiagnostics(diagnostics, sources);
}
