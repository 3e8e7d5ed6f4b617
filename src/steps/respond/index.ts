/** `respond`: answers the request; with a `condition`, only when it holds. */
import { ANSWERS_NOT_IN, defineStepKind } from '../definition.js';
import { RESPOND_CODES } from './codes.js';
import { lower } from './lower.js';
import { compileRespond, knownStatuses } from './node.js';
import type { RespondStepSpec } from './spec.js';

export type { RespondStepSpec } from './spec.js';

export const respondStep = defineStepKind<RespondStepSpec>({
  kind: 'respond',
  blocks: { respond: { multiple: true } },
  notIn: ANSWERS_NOT_IN,
  lower,
  codes: RESPOND_CODES,
  answers: (spec) => (spec.condition ? 'condition' : true),
  statuses: (spec) => knownStatuses(spec) ?? [],
  responses: (spec) => [{ kind: 'body', statuses: knownStatuses(spec) ?? 'computed', headers: spec.headers, body: spec.body, schema: spec.schema }],
  compile: compileRespond,
});
