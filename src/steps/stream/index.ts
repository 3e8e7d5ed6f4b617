/** `stream "<format>"`: answers with a live stream (sse, ndjson, csv, raw); with `when`, only if it holds. */
import { ANSWERS_NOT_IN, defineStepKind } from '../definition.js';
import { STREAM_CODES } from './codes.js';
import { lower } from './lower.js';
import { compileStream } from './node.js';
import { streamResponse } from './response.js';
import type { StreamStepSpec } from './spec.js';

export type { StreamFormat, StreamStepSpec } from './spec.js';
export type { StreamPayload } from './node.js';

export const streamStep = defineStepKind<StreamStepSpec>({
  kind: 'stream',
  blocks: { stream: { labels: ['format'], multiple: true } },
  notIn: ANSWERS_NOT_IN,
  lower,
  codes: STREAM_CODES,
  answers: (spec) => (spec.when ? 'when' : true),
  responses: (spec) => [streamResponse(spec)],
  compile: compileStream,
});
