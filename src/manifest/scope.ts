/**
 * Where the decoder is: the block path (for every diagnostic), the file being decoded, and the
 * shared diagnostics list. Decoders never throw on a bad manifest; they report here and go on, so
 * one run reports every problem.
 */
import type { Block } from '../hcl/index.js';
import { codeIn, type Diagnostic, type DiagnosticCode, type Diagnostics, type Range } from '../diag/index.js';

type Extra = Partial<Omit<Diagnostic, 'severity' | 'summary' | 'subject'>>;

export class DecodeScope {
  constructor(
    readonly diags: Diagnostics,
    readonly path: readonly string[],
    readonly filename: string,
    /** Directory of `filename`, against which relative file references resolve. */
    readonly baseDir: string,
    /**
     * The codes of the step kind whose block this is (its definition's `codes`): a diagnostic reported
     * here takes its code from them when they have its summary, else from the central catalogue.
     */
    readonly kindCodes: readonly DiagnosticCode[] = [],
  ) {}

  /** A scope one block deeper. */
  enter(block: Block | string): DecodeScope {
    const segment = typeof block === 'string' ? block : blockSegment(block);
    return new DecodeScope(this.diags, [...this.path, segment], this.filename, this.baseDir, this.kindCodes);
  }

  /** The same place, reporting for a step kind with these codes (a kind's block, nested ones included). */
  forKind(codes: readonly DiagnosticCode[] = []): DecodeScope {
    return new DecodeScope(this.diags, this.path, this.filename, this.baseDir, codes);
  }

  error(summary: string, subject: Range | undefined, extra: Extra = {}): void {
    this.add('error', summary, subject, extra);
  }

  warning(summary: string, subject: Range | undefined, extra: Extra = {}): void {
    this.add('warning', summary, subject, extra);
  }

  /** Re-homes diagnostics produced elsewhere (the expression compiler) under this block path. */
  adopt(diagnostics: Iterable<Diagnostic>): void {
    for (const d of diagnostics) this.diags.add(d.path && d.path.length > 0 ? d : { ...d, path: this.path });
  }

  private add(severity: 'error' | 'warning', summary: string, subject: Range | undefined, extra: Extra): void {
    const code = codeIn(this.kindCodes, summary);
    const d: Diagnostic = {
      severity,
      summary,
      ...(code !== undefined ? { code } : {}),
      ...(subject ? { subject } : {}),
      ...(this.path.length > 0 ? { path: this.path } : {}),
      ...extra,
    };
    this.diags.add(d);
  }
}

/** `endpoint "GET /x"`, `pipeline`, `sql "q"`: how a block appears in a diagnostic's path. */
export function blockSegment(block: Block): string {
  return [block.type, ...block.labels.map((l) => JSON.stringify(l))].join(' ');
}
