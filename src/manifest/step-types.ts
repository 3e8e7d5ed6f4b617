/**
 * What every step spec shares, whatever its kind. The manifest decodes step blocks through the step
 * kinds src/steps injects (./steps.ts), so it knows steps only by these shapes; each kind's own spec
 * (src/steps/<kind>/spec.ts) extends `StepSpecBase`.
 */
import type { Range } from '../diag/index.js';
import type { CompiledExpression, PossibleStatuses } from '../expr/index.js';
import type { TypeSpec } from '../schema/index.js';
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
  /** Headers of the answer (a map), as a respond's. */
  readonly headers?: Expr;
  readonly range: Range;
}

/**
 * An answer a step gives the request, as the OpenAPI document describes it: what a step kind's
 * `responses` (src/model/step-kind.ts) says of one of its steps, so the document reads no kind's
 * spec. `body`: a status, headers and a JSON (or text) body; `stream`: a response sent item by item.
 */
export type StepResponse = BodyResponse | StreamResponse;

export interface BodyResponse {
  readonly kind: 'body';
  /** The statuses it can answer with, read from the manifest's text; `computed` when request data decides. */
  readonly statuses: PossibleStatuses;
  /** Map of header name to string; a `Content-Type` among them gives the media type. */
  readonly headers?: Expr;
  /** Absent or null: no body. A body built by `problem()` is sent as application/problem+json. */
  readonly body?: Expr;
  /** The body's declared schema: the server sends only its fields. */
  readonly schema?: TypeSpec;
}

export interface StreamResponse {
  readonly kind: 'stream';
  readonly contentType: string;
  readonly headers?: Expr;
  /** What is sent: `items` (each item as JSON, its schema documented), `text` (a text body), `bytes` (as they come). */
  readonly body: 'items' | 'text' | 'bytes';
  /** Said in the description: how the items are framed, how an error ends the stream. */
  readonly note: string;
  /** The items' declared schema. */
  readonly schema?: TypeSpec;
  /** Where the items come from (`steps.q.stream`): without `schema`, they are typed from the step it names. */
  readonly source: Expr;
}
