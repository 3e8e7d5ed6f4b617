/**
 * The diagnostic codes of transaction steps, the `codes` facet of ./index.ts.
 * A code never changes (src/diag/codes.ts): these keep the ones they had in the central catalogue.
 */
import type { DiagnosticCode } from '../../diag/index.js';

export const TRANSACTION_CODES: readonly DiagnosticCode[] = [
  {
    code: 'SVC_STEP_PARALLEL_IN_TRANSACTION',
    summary: 'Parallel in a transaction',
    description: 'A parallel block inside a transaction, whose one client cannot run two queries at once.',
  },
  { code: 'SVC_STEP_EMPTY_TRANSACTION', summary: 'Empty transaction', description: 'A transaction step with no sql step inside.' },
];
