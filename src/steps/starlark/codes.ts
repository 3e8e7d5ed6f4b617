/**
 * The diagnostic codes of starlark steps, the `codes` facet of ./index.ts: the program's `execute`,
 * its compilation and its top level run at boot.
 * A code never changes (src/diag/codes.ts): these keep the ones they had in the central catalogue.
 */
import type { DiagnosticCode } from '../../diag/index.js';

export const STARLARK_CODES: readonly DiagnosticCode[] = [
  { code: 'SVC_STEP_MISSING_EXECUTE', summary: 'Missing execute function', description: 'An inline Starlark program without a def execute(ctx).' },
  {
    code: 'SVC_STEP_STARLARK_NO_EXECUTE',
    summary: 'Starlark: the program defines no execute(ctx) function',
    description: 'A Starlark program that does not define execute(ctx).',
  },
  {
    code: 'SVC_STEP_STARLARK_LOAD_FAILED',
    summary: 'Starlark: the program failed while loading',
    description: "A Starlark program's top level fails when it is run at boot.",
  },
  {
    code: 'SVC_STEP_STARLARK_COMPILE_ERROR',
    summary: 'Starlark: {message...}',
    description: 'A Starlark program that does not compile (syntax or name resolution).',
  },
];
