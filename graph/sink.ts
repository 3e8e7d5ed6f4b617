import { Category, StepError, type Site } from './errors.js';
import type { Exec } from './exec.js';
import { guardedInvoke } from './step.js';
import { isPulledSource } from './stream.js';
import type { GraphScope, SinkNodeDef, SinkResult, StreamOutcome } from './types.js';

/**
 * `stream`: a sink. It ends the run with a stream outcome carrying the pulled source; the HTTP layer
 * reads it on demand into an encoder. The end of the run's lifetime (which aborts the signals of
 * earlier steps and runs their releases: cursors, subscriptions) is deferred to the outcome's
 * `dispose`: see `handOff` in run.ts. The sink's own context ends then too.
 * With a false `condition` (`when`) the sink is skipped.
 */
export function compileSink<S extends GraphScope>(def: SinkNodeDef<S>, site: Site): Exec<S> {
  const { condition, run, timeout } = def;
  const { info } = site;
  const toOutcome = (_scope: S, value: unknown): StreamOutcome => {
    const result = value as SinkResult | null | undefined;
    if (result === null || typeof result !== 'object' || !isPulledSource(result.source)) {
      throw new StepError(info, `step "${info.id}" (${info.kind}) did not produce a { source } to read items from`, value, Category.invalidResult);
    }
    return { kind: 'stream', step: info.id, payload: result.payload, source: result.source, dispose: disposeNothing };
  };
  return guardedInvoke(condition, site, run, timeout, toOutcome);
}

/** The sink itself holds nothing: what a stream keeps alive is released by the run's `handOff`. */
function disposeNothing(): void {}
