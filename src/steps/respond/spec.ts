/** `respond { condition, status, headers, body, schema }` */
import type { Expr, StepSpecBase } from '../../manifest/index.js';
import type { TypeSpec } from '../../schema/index.js';
import type { PossibleStatuses } from '../../expr/index.js';

export interface RespondStepSpec extends StepSpecBase {
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
  /**
   * The statuses it can answer with, read from the manifest's text (statuses.ts): for `svc graph`
   * and the endpoint's statuses known at boot. Absent in a spec built by hand: `statusCode` then.
   */
  readonly possibleStatuses?: PossibleStatuses;
  /** Map of header name to string. */
  readonly headers?: Expr;
  /** Absent or null: no body. A body built by `problem()` is sent as application/problem+json. */
  readonly body?: Expr;
  /**
   * `schema = schema.<name>` or `list(schema.<name>)`: the body is sent with only the declared fields
   * (a required one missing fails the step) and documented as a `$ref` to the named schema.
   */
  readonly schema?: TypeSpec;
}
