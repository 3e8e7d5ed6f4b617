/** `respond` blocks -> RespondStepSpec: the decoder of the kind's definition. */
import type { Attribute, Block } from '../../hcl/index.js';
import { type BodySchema, type DecodeScope, type LowerContext, checkStatus, decodeBody, decodeType, evaluateCompiled, readExpr } from '../../manifest/index.js';
import type { TypeSpec } from '../../schema/index.js';
import type { RespondStepSpec } from './spec.js';
import { bodyStatuses, writtenStatuses } from '../../expr/index.js';

const RESPOND_BODY: BodySchema = { attributes: { condition: {}, status: {}, headers: {}, body: {}, schema: {} } };

export function lower(block: Block, cx: LowerContext): RespondStepSpec | undefined {
  const s = cx.scope;
  const d = decodeBody(block.body, RESPOND_BODY, s, block);
  const condition = readExpr(d.attrs.get('condition'), s, 'bool');
  const headers = readExpr(d.attrs.get('headers'), s, 'map');
  const body = readExpr(d.attrs.get('body'), s);
  const schema = readSchema(d.attrs.get('schema'), d.attrs.has('body'), cx);
  const statusAttr = d.attrs.get('status');
  const out = {
    kind: 'respond' as const,
    ...(condition ? { condition } : {}),
    ...(headers ? { headers } : {}),
    ...(body ? { body } : {}),
    ...(schema ? { schema } : {}),
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

const SCHEMA_SHAPES = 'A respond\'s "schema" is schema.<name> (one object) or list(schema.<name>) (a list of them).';

/**
 * `schema = schema.<name>` or `list(schema.<name>)`: a named schema, so that the document refers to
 * one component and every endpoint answering with it shares it. An unknown name is reported by
 * decodeType, with a did-you-mean.
 */
function readSchema(attr: Attribute | undefined, hasBody: boolean, cx: LowerContext): TypeSpec | undefined {
  if (!attr) return undefined;
  const s: DecodeScope = cx.scope;
  const type = decodeType(attr.expr, s, cx.env.schemas);
  if (!type) return undefined;
  const object = type.kind === 'list' ? type.items : type;
  if (object.kind !== 'object' || object.name === undefined) {
    s.error('Invalid respond schema', attr.expr.range, { detail: `${SCHEMA_SHAPES} Other types have no fields to keep.` });
    return undefined;
  }
  if (!hasBody) {
    s.error('Invalid respond schema', attr.nameRange, { detail: `This respond sends no body for "schema" to describe: add a "body", or remove "schema".` });
    return undefined;
  }
  return type;
}
