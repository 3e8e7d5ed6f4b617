/** `http "<name>"`: an outbound HTTP call. */
import { defineStepKind, NAMED_STEP } from '../definition.js';
import { HTTP_CODES } from './codes.js';
import { lower } from './lower.js';
import { compileHttp } from './node.js';
import type { HttpStepSpec } from './spec.js';

export type { HttpStepSpec } from './spec.js';

export const httpStep = defineStepKind<HttpStepSpec>({
  kind: 'http',
  continuable: true,
  blocks: { http: NAMED_STEP },
  lower,
  codes: HTTP_CODES,
  outputs: (spec) => (spec.stream ? ['status', 'headers', 'stream'] : ['status', 'headers', 'body']),
  outputsHint: (spec) => (spec.stream ? 'it streams: stream = true' : undefined),
  // An upstream that refused, reset or sent what cannot be accepted; the client closed; a time-out.
  failures: [502, 503, 504],
  compile: compileHttp,
});
