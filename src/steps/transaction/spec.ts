/** `transaction "<name>" { connection, sql "<n>" {...}..., catch "<code>" {...} }` */
import type { CatchSpec, ConnectionRef, StepSpecBase } from '../../manifest/index.js';
import type { SqlStepSpec } from '../sql/spec.js';

export interface TransactionStepSpec extends StepSpecBase {
  readonly kind: 'transaction';
  readonly name: string;
  readonly connection: ConnectionRef;
  /** Inner steps run in order on one client; they have no `connection` of their own. */
  readonly steps: readonly SqlStepSpec[];
  /** Transaction-level catches; inner steps may carry their own. Either way the transaction rolls back first. */
  readonly catches: readonly CatchSpec[];
}
