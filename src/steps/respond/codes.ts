/**
 * The diagnostic codes of respond steps, the `codes` facet of ./index.ts.
 * A code never changes (src/diag/codes.ts): these keep the ones they had in the central catalogue.
 */
import type { DiagnosticCode } from '../../diag/index.js';

export const RESPOND_CODES: readonly DiagnosticCode[] = [
  { code: 'SVC_STEP_INVALID_RESPOND', summary: 'Invalid respond step', description: 'A respond step that cannot be compiled.' },
  { code: 'SVC_STEP_INVALID_RESPOND_STATUS', summary: 'Invalid respond status', description: 'A respond step with an interim (1xx) status.' },
  {
    code: 'SVC_STEP_INVALID_RESPOND_SCHEMA',
    summary: 'Invalid respond schema',
    description: 'A respond `schema` that is not schema.<name> or list(schema.<name>), or on a respond without a body.',
  },
];
