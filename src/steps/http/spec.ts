/** `http "<name>" { url, method = "GET", headers = {}, body, timeout = "10s", stream = false }` */
import type { Expr, StepSpecBase } from '../../manifest/index.js';

export interface HttpStepSpec extends StepSpecBase {
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
