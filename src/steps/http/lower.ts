/** `http` blocks -> HttpStepSpec: the decoder of the kind's definition. */
import type { Block } from '../../hcl/index.js';
import { type BodySchema, type LowerContext, METHODS, decodeBody, readBool, readChoice, readDuration, readExpr } from '../../manifest/index.js';
import type { HttpStepSpec } from './spec.js';

const HTTP_BODY: BodySchema = {
  attributes: { url: { required: true }, method: {}, headers: {}, body: {}, timeout: {}, stream: {} },
};

export function lower(block: Block, cx: LowerContext): HttpStepSpec | undefined {
  const s = cx.scope;
  const d = decodeBody(block.body, HTTP_BODY, s, block);
  const url = readExpr(d.attrs.get('url'), s, 'string');
  const method = readChoice(d.attrs.get('method'), s, METHODS, true) ?? 'GET';
  const headers = readExpr(d.attrs.get('headers'), s, 'map');
  const body = readExpr(d.attrs.get('body'), s);
  const timeoutMs = readDuration(d.attrs.get('timeout'), s) ?? 10_000;
  const stream = readBool(d.attrs.get('stream'), s) ?? false;
  if (!url) return undefined;
  return {
    kind: 'http',
    name: block.labels[0]!,
    url,
    method,
    ...(headers ? { headers } : {}),
    ...(body ? { body } : {}),
    timeoutMs,
    stream,
    range: block.range,
    blockPath: s.path,
  };
}
