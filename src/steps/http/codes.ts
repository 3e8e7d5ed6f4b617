/**
 * The diagnostic codes of http steps, the `codes` facet of ./index.ts: the url, checked at boot.
 * A code never changes (src/diag/codes.ts): these keep the ones they had in the central catalogue.
 */
import type { DiagnosticCode } from '../../diag/index.js';

export const HTTP_CODES: readonly DiagnosticCode[] = [
  {
    code: 'SVC_STEP_INVALID_HTTP_URL',
    summary: 'Invalid http step url',
    description: 'An http step whose url, known at boot, is not an absolute http: or https: URL, or whose url template has a "." or ".." path segment.',
  },
  {
    code: 'SVC_STEP_HTTP_URL_FROM_REQUEST',
    summary: 'Request data in an http step url',
    description:
      "A warning: an http step's url puts request data (ctx.request...) where svc cannot encode it: in the scheme, host or port, or as a whole URL computed by an expression that is not a template.",
  },
];
