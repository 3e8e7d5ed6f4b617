import type { ErrorWrapper } from './errors.js';
import type { Exec } from './exec.js';
import { guardedInvoke } from './step.js';
import type { ExitNodeDef, ExitOutcome, GraphScope, StepInfo } from './types.js';

/**
 * Returned by a step (or a container's `leave`) to end the run with an exit outcome instead of
 * producing an output: how a `catch` block turns a database error into its declared response.
 */
export class ExitSignal {
  constructor(readonly payload: unknown) {}
}

export function exitWith(payload: unknown): ExitSignal {
  return new ExitSignal(payload);
}

export function exitOutcome(info: StepInfo, payload: unknown): ExitOutcome {
  return { kind: 'exit', step: info.id, payload };
}

/**
 * `respond`: an early-exit node. The condition is evaluated synchronously; when false the node is
 * skipped (the sequence carries on), when true or absent `run` computes the payload and the run ends.
 */
export function compileExit<S extends GraphScope>(def: ExitNodeDef<S>, info: StepInfo, wrap: ErrorWrapper): Exec<S> {
  const { condition, run, timeout } = def;
  const toOutcome = (_scope: S, payload: unknown): ExitOutcome =>
    exitOutcome(info, payload instanceof ExitSignal ? payload.payload : payload);
  return guardedInvoke(condition, info, run, wrap, timeout, toOutcome);
}
