/** `respond` blocks -> RespondStepSpec: the decoder of the kind's definition. */
import type { Block } from '../../hcl/index.js';
import { type BodySchema, type LowerContext, checkStatus, decodeBody, evaluateCompiled, readExpr } from '../../manifest/index.js';
import type { RespondStepSpec } from './spec.js';
import { bodyStatuses, writtenStatuses } from '../../expr/index.js';

const RESPOND_BODY: BodySchema = { attributes: { condition: {}, status: {}, headers: {}, body: {} } };

export function lower(block: Block, cx: LowerContext): RespondStepSpec | undefined {
  const s = cx.scope;
  const d = decodeBody(block.body, RESPOND_BODY, s, block);
  const condition = readExpr(d.attrs.get('condition'), s, 'bool');
  const headers = readExpr(d.attrs.get('headers'), s, 'map');
  const body = readExpr(d.attrs.get('body'), s);
  const statusAttr = d.attrs.get('status');
  const out = {
    kind: 'respond' as const,
    ...(condition ? { condition } : {}),
    ...(headers ? { headers } : {}),
    ...(body ? { body } : {}),
    range: block.range,
    blockPath: s.path,
  };
  if (!statusAttr) return { ...out, statusCode: 200, statusOmitted: true, possibleStatuses: bodyStatuses(d.attrs.get('body')?.expr) };
  const status = readExpr(statusAttr, s);
  if (!status) return undefined;
  if (!status.constant) return { ...out, status, possibleStatuses: writtenStatuses(statusAttr.expr) };
  const v = evaluateCompiled(status, s);
  if (!v.ok) return undefined;
  const statusCode = checkStatus(statusAttr, s, v.value);
  return statusCode === undefined ? undefined : { ...out, statusCode, possibleStatuses: [statusCode] };
}
