import type { Range } from './range.js';

export type Severity = 'error' | 'warning';

/**
 * A problem found in a manifest, as a value: never a string glued together, never a thrown stack.
 * `path` is the block path from the outermost block inwards, each segment already formatted
 * (`endpoint "GET /x"`, `pipeline`, `sql "q"`); it renders as `in endpoint "GET /x" > pipeline > sql "q"`.
 */
export interface Diagnostic {
  readonly severity: Severity;
  readonly summary: string;
  /**
   * The stable code (`SVC_...`, catalogued in ./codes.ts, or in the reporting step kind's `codes`).
   * Producers normally leave it out and the catalogue supplies it from the summary, so read it with
   * `codeOf(d)`, not `d.code`; it is set where a step kind reports (its scope, the compile
   * environment: from the kind's own list) or to override that lookup.
   */
  readonly code?: string;
  readonly detail?: string;
  /** The span the diagnostic is about; rendered underlined. */
  readonly subject?: Range;
  /** A wider span giving context (for example the whole expression around the subject). */
  readonly context?: Range;
  readonly path?: readonly string[];
  /** A replacement to suggest, shown as `Did you mean "<suggestion>"?`. */
  readonly suggestion?: string;
}

/** An ordered, append-only list of diagnostics, collected so that one run reports all of them. */
export class Diagnostics implements Iterable<Diagnostic> {
  readonly items: Diagnostic[] = [];

  add(diagnostic: Diagnostic): void {
    this.items.push(diagnostic);
  }

  error(summary: string, subject?: Range, extra: Partial<Omit<Diagnostic, 'severity' | 'summary' | 'subject'>> = {}): void {
    this.items.push({ severity: 'error', summary, ...(subject ? { subject } : {}), ...extra });
  }

  append(others: Iterable<Diagnostic>): void {
    for (const d of others) this.items.push(d);
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }

  get length(): number {
    return this.items.length;
  }

  [Symbol.iterator](): Iterator<Diagnostic> {
    return this.items[Symbol.iterator]();
  }
}
