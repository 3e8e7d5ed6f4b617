import type { Site } from './errors.js';
import type { Exec } from './exec.js';
import { ExitSignal, exitOutcome } from './result.js';
import { guardedInvoke } from './step.js';
import type { ExitNodeDef, ExitOutcome, GraphScope } from './types.js';

/**
 * `respond`: an early-exit node. The condition is evaluated synchronously; when false the node is
 * skipped (the sequence carries on), when true or absent `run` computes the payload and the run ends.
 */
export function compileExit<S extends GraphScope>(def: ExitNodeDef<S>, site: Site): Exec<S> {
  const { condition, run, timeout } = def;
  const { info } = site;
  const toOutcome = (_scope: S, payload: unknown): ExitOutcome => exitOutcome(info, payload instanceof ExitSignal ? payload.payload : payload);
  return guardedInvoke(condition, site, run, timeout, toOutcome);
}
