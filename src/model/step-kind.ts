/**
 * What the boot checks need to know about a step kind: the model's part of a step kind's one
 * definition (src/steps/<kind>/index.ts). The checks of src/model/checks read only this, never a
 * kind's name, so a new kind is checked by writing its definition.
 */
import type { StepDecoder, StepResponse, StepSpecBase } from '../manifest/index.js';

/**
 * How a step's nested steps run: `sequence` (a transaction: in order, every inner output visible to
 * the later inner steps and after the step) or `branches` (a parallel: concurrently, no branch may
 * read another; every output visible after the step).
 */
export interface StepChildren {
  readonly steps: readonly StepSpecBase[];
  readonly run: 'sequence' | 'branches';
}

export interface StepKindModel<S extends StepSpecBase = StepSpecBase> extends StepDecoder<S> {
  /** Nested steps, when the kind holds any. */
  children?(spec: S): StepChildren | undefined;
  /**
   * The members `steps.<name>.<member>` the step offers; undefined when any member may be read.
   * Kinds that hold steps offer their inner steps' names (filled in by the checks, not here).
   */
  outputs?(spec: S): readonly string[] | undefined;
  /** Said after the list of outputs when a member is not one of them (`it streams: stream = true`). */
  outputsHint?(spec: S): string | undefined;
  /**
   * Whether the step answers the request: `true` always (it ends the pipeline), a string when only
   * if that attribute holds (`condition`, `when`), `false`/absent never.
   */
  answers?(spec: S): boolean | string;
  /** Statuses the step can answer with that are known at boot (a respond's status, catch statuses). */
  statuses?(spec: S): readonly number[];
  /**
   * What the step answers with, for the OpenAPI document: a respond's status, headers and body, a
   * stream's media type and items. Absent: the step does not answer (its failures aside).
   */
  responses?(spec: S): readonly StepResponse[];
  /**
   * The statuses a failure of the step can answer with, besides the 500 any step can (src/steps
   * failure-status.ts): 400 a value of the request the database refused, 502 an upstream HTTP server
   * that failed, 503 an unreachable dependency, 504 a time-out. The OpenAPI document lists them.
   */
  readonly failures?: readonly FailureStatus[];
}

/** A status a step's failure can have besides 500 (the categories of src/steps failure-status.ts). */
export type FailureStatus = 400 | 502 | 503 | 504;

/**
 * A definition of some kind, as a list holds them. `any` on purpose: a list mixes kinds whose spec
 * types differ, and each kind's functions are only ever called with specs of its own kind (the
 * table is keyed by `kind`), which no single spec type can express.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type AnyStepKindModel = StepKindModel<any>;

/** The injected step kinds, by their `kind`. */
export type StepKindModels = ReadonlyMap<string, StepKindModel>;
