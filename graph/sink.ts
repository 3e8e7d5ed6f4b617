import { isObservable } from 'rxjs';
import { Category, StepError, type ErrorWrapper } from './errors.js';
import type { Exec } from './exec.js';
import { guardedInvoke } from './step.js';
import type { GraphScope, SinkNodeDef, SinkResult, StepInfo, StreamOutcome } from './types.js';

/**
 * `stream`: a sink. It ends the run with a stream outcome carrying the live source; the HTTP layer
 * subscribes to it and pipes it into an encoder. The run's teardown (abort of its signal, which
 * releases cursors and subscriptions opened by earlier steps) is deferred to the teardown of that
 * subscription: see `handOff` in run.ts. With a false `condition` (`when`) the sink is skipped.
 */
export function compileSink<S extends GraphScope>(def: SinkNodeDef<S>, info: StepInfo, wrap: ErrorWrapper): Exec<S> {
  const { condition, run, timeout } = def;
  const toOutcome = (_scope: S, value: unknown): StreamOutcome => {
    const result = value as SinkResult | null | undefined;
    if (result === null || typeof result !== 'object' || !isObservable(result.source)) {
      throw new StepError(info, `step "${info.id}" (${info.kind}) did not produce a { source: Observable }`, value, Category.invalidResult);
    }
    return { kind: 'stream', step: info.id, payload: result.payload, source: result.source };
  };
  return guardedInvoke(condition, info, run, wrap, timeout, toOutcome);
}
