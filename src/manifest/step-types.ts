/**
 * What every step spec shares, whatever its kind. The manifest decodes step blocks through the step
 * kinds src/steps injects (./steps.ts), so it knows steps only by these shapes; each kind's own spec
 * (src/steps/<kind>/spec.ts) extends `StepSpecBase`.
 */
import type { Range } from '../diag/index.js';
import type { CompiledExpression } from '../expr/index.js';
import type { ConnectionKind } from './connection-kind.js';

/**
 * A runtime expression, compiled once at boot. Run it per request with
 * `expr.evaluate({ ctx, steps })` (throws the expression module's ExprEvalError). Its `references`
 * (ctx.*, steps.*) were checked at boot; a `constant` one carries its folded `value`.
 */
export type Expr = CompiledExpression;

/** A resolved reference to a declared connection: look it up with `connectionKey(kind, name)`. */
export interface ConnectionRef {
  readonly kind: ConnectionKind;
  readonly name: string;
  readonly range: Range;
}

export interface StepSpecBase {
  /** The step kind (`sql`, `respond`...): the key of its definition in src/steps. */
  readonly kind: string;
  /** The step's label (`sql "q"` -> `q`); absent for `respond`, unlabelled `parallel`, `stream`. */
  readonly name?: string;
  /** The whole block. */
  readonly range: Range;
  /** Block path for diagnostics and runtime errors: `['endpoint "GET /x"', 'pipeline', 'sql "q"']`. */
  readonly blockPath: readonly string[];
  /** `on_error = "continue"`: the step's failure becomes its output (`ok`, `error`); kinds that take it. */
  readonly onError?: 'continue';
}

/** `catch "<code>" { status, body }`: a database error with that SQLSTATE answers with status/body. */
export interface CatchSpec {
  /** SQLSTATE code, five characters (e.g. `23505`). */
  readonly code: string;
  readonly status: number;
  readonly body?: Expr;
  readonly range: Range;
}
