/** `http "<name>" { url, method = "GET", headers = {}, body, timeout = "10s", stream = false }` */
import type { Expr, StepBase } from '../../model/step-common.js';
import type { Block } from '../../hcl/ast.js';
import type { LowerContext } from '../../manifest/lower-context.js';
import { decodeBody, type BodySchema } from '../../manifest/body.js';
import { METHODS } from '../../manifest/route-label.js';
import { readBool, readChoice, readDuration, readExpr } from '../../manifest/values.js';

export interface HttpStepSpec extends StepBase {
  readonly kind: 'http';
  readonly name: string;
  readonly url: Expr;
  /** Static, upper-cased; default GET. */
  readonly method: string;
  readonly headers?: Expr;
  readonly body?: Expr;
  /** Default 10 000. */
  readonly timeoutMs: number;
  readonly stream: boolean;
}

// ---------------------------------------------------------------- lower: block -> spec

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
