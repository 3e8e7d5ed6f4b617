/** `respond { condition, status, headers, body }` */
import type { Expr, StepBase } from '../../model/step-common.js';

export interface RespondStepSpec extends StepBase {
  readonly kind: 'respond';
  /** Absent: the respond is unconditional and ends the pipeline. */
  readonly condition?: Expr;
  /** The status when known at boot (200 when `status` is omitted); checked to be 100-599. */
  readonly statusCode?: number;
  /** Set only when the status is computed at run time (then `statusCode` is absent). */
  readonly status?: Expr;
  /** Map of header name to string. */
  readonly headers?: Expr;
  /** Absent or null: no body. A body built by `problem()` is sent as application/problem+json. */
  readonly body?: Expr;
}
