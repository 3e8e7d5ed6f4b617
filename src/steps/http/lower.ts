/** `http` blocks -> HttpStepSpec: the decoder of the kind's definition. */
import type { Block } from '../../hcl/index.js';
import { type BodySchema, type LowerContext, METHODS, decodeBody, readBool, readChoice, readDuration, readExpr } from '../../manifest/index.js';
import { DEFAULT_READ_TIMEOUT_MS, type HttpStepSpec } from './spec.js';
import { readUrl } from './url-template.js';

const HTTP_BODY: BodySchema = {
  attributes: { url: { required: true }, method: {}, headers: {}, body: {}, timeout: {}, stream: {}, read_timeout: {} },
};

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
    range: block.range,
    blockPath: s.path,
  };
}
