/** `http` blocks -> HttpStepSpec: the decoder of the kind's definition. */
import type { Block } from '../../hcl/index.js';
import {
  type BodySchema,
  type DecodeScope,
  type LowerContext,
  METHODS,
  blocksOf,
  decodeBody,
  readBool,
  readChoice,
  readDuration,
  readExpr,
  readInt,
} from '../../manifest/index.js';
import type { RetrySpec } from './retry.js';
import { DEFAULT_READ_TIMEOUT_MS, type HttpStepSpec } from './spec.js';
import { readUrl } from './url-template.js';

const HTTP_BODY: BodySchema = {
  attributes: { url: { required: true }, method: {}, headers: {}, body: {}, timeout: {}, stream: {}, read_timeout: {} },
  blocks: { retry: {} },
};

const RETRY_BODY: BodySchema = { attributes: { attempts: { required: true }, backoff: {} } };

/** `backoff` when not given: the first wait, doubled for each next one. */
const DEFAULT_BACKOFF_MS = 500;

export function lower(block: Block, cx: LowerContext): HttpStepSpec | undefined {
  const s = cx.scope;
  const d = decodeBody(block.body, HTTP_BODY, s, block);
  const url = readUrl(d.attrs.get('url'), s);
  const method = readChoice(d.attrs.get('method'), s, METHODS, true) ?? 'GET';
  const headers = readExpr(d.attrs.get('headers'), s, 'map');
  const body = readExpr(d.attrs.get('body'), s);
  const timeoutMs = readDuration(d.attrs.get('timeout'), s) ?? 10_000;
  const stream = readBool(d.attrs.get('stream'), s) ?? false;
  const readTimeoutAttr = d.attrs.get('read_timeout');
  const readTimeoutMs = readDuration(readTimeoutAttr, s) ?? DEFAULT_READ_TIMEOUT_MS;
  if (readTimeoutAttr && !stream) {
    s.error('Unsupported argument', readTimeoutAttr.nameRange, {
      detail: '"read_timeout" bounds the waits for a streamed body (stream = true); a body read into memory is bounded by "timeout".',
    });
  }
  const retry = readRetry(blocksOf(d, 'retry')[0], stream, s);
  if (!url) return undefined;
  return {
    kind: 'http',
    name: block.labels[0]!,
    url: url.url,
    pathFromValues: url.pathFromValues,
    method,
    ...(headers ? { headers } : {}),
    ...(body ? { body } : {}),
    timeoutMs,
    stream,
    readTimeoutMs,
    ...(retry ? { retry } : {}),
    range: block.range,
    blockPath: s.path,
  };
}

/** `retry { attempts = 2..10, backoff = "500ms" }`; not on a streamed body, already being sent on. */
function readRetry(block: Block | undefined, stream: boolean, scope: DecodeScope): RetrySpec | undefined {
  if (block === undefined) return undefined;
  const s = scope.enter(block);
  const d = decodeBody(block.body, RETRY_BODY, s, block);
  if (stream) {
    s.error('Unsupported block type', block.typeRange, {
      detail: 'A streamed body (stream = true) is sent on as it arrives: a failure halfway cannot be retried.',
    });
    return undefined;
  }
  const attempts = readInt(d.attrs.get('attempts'), s, { min: 2, max: 10 });
  const backoffMs = readDuration(d.attrs.get('backoff'), s, { min: 1, max: 60_000 }) ?? DEFAULT_BACKOFF_MS;
  return attempts === undefined ? undefined : { attempts, backoffMs };
}
