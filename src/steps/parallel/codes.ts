/**
 * The diagnostic codes of parallel steps, the `codes` facet of ./index.ts.
 * A code never changes (src/diag/codes.ts): these keep the ones they had in the central catalogue.
 */
import type { DiagnosticCode } from '../../diag/index.js';

export const PARALLEL_CODES: readonly DiagnosticCode[] = [
  { code: 'SVC_STEP_EMPTY_PARALLEL', summary: 'Empty parallel', description: 'A parallel block with no step inside.' },
];
