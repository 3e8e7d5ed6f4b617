/** `transaction "<name>"`: its sql steps run in order on one client, BEGIN ... COMMIT. */
import { defineStepKind, NAMED_STEP } from '../definition.js';
import { TRANSACTION_CODES } from './codes.js';
import { lower } from './lower.js';
import { compileTransaction } from './node.js';
import type { TransactionStepSpec } from './spec.js';

export type { TransactionStepSpec } from './spec.js';

export const transactionStep = defineStepKind<TransactionStepSpec>({
  kind: 'transaction',
  blocks: { transaction: NAMED_STEP },
  lower,
  codes: TRANSACTION_CODES,
  children: (spec) => ({ steps: spec.steps, run: 'sequence' }),
  holdsSteps: true,
  statuses: (spec) => spec.catches.map((c) => c.status),
  failures: [400, 503, 504],
  compile: compileTransaction,
});
