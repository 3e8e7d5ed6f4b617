/** `respond { condition, status, headers, body }` */
import type { Expr, StepBase } from '../../model/step-common.js';
import type { Block } from '../../hcl/ast.js';
import type { LowerContext } from '../../manifest/lower-context.js';
import { decodeBody, type BodySchema } from '../../manifest/body.js';
import { evaluateCompiled } from '../../manifest/expr.js';
import { checkStatus, readExpr } from '../../manifest/values.js';

export interface RespondStepSpec extends StepBase {
  readonly kind: 'respond';
  /** Absent: the respond is unconditional and ends the pipeline. */
  readonly condition?: Expr;
  /** The status when known at boot (200 when `status` is omitted); checked to be 100-599. */
  readonly statusCode?: number;
  /** Set only when the status is computed at run time (then `statusCode` is absent). */
  readonly status?: Expr;
  /**
   * `status` was not written: the response takes the status of a `problem()` body, else 200
   * (`respond { body = problem(404, "...") }` is a 404, as its author means).
   */
  readonly statusOmitted?: boolean;
  /** Map of header name to string. */
  readonly headers?: Expr;
  /** Absent or null: no body. A body built by `problem()` is sent as application/problem+json. */
  readonly body?: Expr;
}

// ---------------------------------------------------------------- lower: block -> spec

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
  if (!statusAttr) return { ...out, statusCode: 200, statusOmitted: true };
  const status = readExpr(statusAttr, s);
  if (!status) return undefined;
  if (!status.constant) return { ...out, status };
  const v = evaluateCompiled(status, s);
  if (!v.ok) return undefined;
  const statusCode = checkStatus(statusAttr, s, v.value);
  return statusCode === undefined ? undefined : { ...out, statusCode };
}
