/**
 * `starlark "<name>"`: the program is compiled and its top level run once, at boot (a failure is a
 * boot diagnostic at the program's manifest line; inline positions: placement.ts). Each request
 * calls `execute(ctx)` under a slice of its budget on the event loop (slice.ts), then if needed from
 * the start on the pool (pool.ts); the value becomes `steps.<name>.result`. `ctx` is read as the
 * manifest reads it (context.ts). A run-time error is a 500 naming the step (backtrace in the log);
 * past the budget, a 504.
 */
import { messageOf } from '../../../graph/index.js';
import type { Range } from '../../diag/index.js';
import { compileModule, DEFAULT_MAX_STEPS, DEFAULT_TIMEOUT_MS, StarlarkError, type StarlarkModule } from '../../starlark/index.js';
import type { EndpointNode, EndpointScope } from '../contract.js';
import type { NodeCompiler } from '../definition.js';
import { starlarkPool } from './pool.js';
import { contextPlan } from './context.js';
import { moduleLoader } from './modules.js';
import { inlinePlacement } from './placement.js';
import { NEEDS_POOL, runSlice } from './slice.js';
import type { StarlarkStepSpec } from './spec.js';

export const compileStarlark: NodeCompiler<StarlarkStepSpec> = (spec, env) => {
  const place = spec.sourceRange && inlinePlacement(spec.source, spec.sourceRange, env.model?.sources.get(spec.sourceRange.filename));
  const { program, errors } = compileModule(spec.source, spec.sourceName, place ? { place } : {});
  if (!program) {
    for (const error of errors) env.error(spec, `Starlark: ${error.message}`, undefined, pointAt(error.file, error.line, error.col));
    return undefined;
  }
  // Never longer than a request may take.
  const timeoutMs = Math.min(spec.timeoutMs ?? DEFAULT_TIMEOUT_MS, env.model?.server.requestTimeoutMs ?? Infinity);
  const limits = { maxSteps: spec.maxSteps ?? DEFAULT_MAX_STEPS, timeoutMs };

  // The modules its `load` statements name were read at boot (./modules.ts).
  const modules = spec.modules && spec.moduleDir !== undefined ? { sources: spec.modules, dir: spec.moduleDir } : undefined;
  let module: StarlarkModule;
  try {
    module = program.init(modules ? { ...limits, load: moduleLoader(modules.sources, modules.dir, limits) } : limits);
  } catch (error) {
    // at the statement that failed (a refused `load`, a `fail`), else at the step
    const pos = error instanceof StarlarkError ? error.pos : null;
    env.error(spec, 'Starlark: the program failed while loading', describe(error), pos ? pointAt(pos.file, pos.line, pos.col) : undefined);
    return undefined;
  }
  if (module.get('execute') === undefined) {
    env.error(
      spec,
      'Starlark: the program defines no execute(ctx) function',
      'A starlark step calls `execute(ctx)` for every request and stores what it returns as steps.<name>.result.',
    );
    return undefined;
  }

  // What of ctx the script can read, from its text: only that is sent to the worker.
  const ctxData = contextPlan(program.parameterReads('execute'));
  const pool = starlarkPool();
  const registered = pool.register(spec.source, spec.sourceName, limits.maxSteps, limits.timeoutMs, place, modules);
  const node: EndpointNode = {
    type: 'step',
    kind: 'starlark',
    name: spec.name,
    id: env.idOf(spec),
    label: spec.file !== undefined ? spec.sourceName : 'inline program',
    meta: spec,
    classify: (cause) => (cause instanceof StarlarkError && cause.kind === 'timeout' ? 'timeout' : undefined),
    run: (scope: EndpointScope, context) => {
      const data = ctxData(scope);
      // Most calls finish within the slice, synchronously (slice.ts); the others go to the pool.
      const quick = runSlice(module, data, limits);
      if (quick !== NEEDS_POOL) return { result: quick };
      const call = pool.call(registered, data, limits.maxSteps, limits.timeoutMs);
      // The request timed out, its client left or a parallel branch failed: stop the script.
      context.onRelease((reason) => {
        if (reason !== undefined) call.cancel(reason);
      });
      // The result feeds expressions and JSON bodies (protocol.ts resultLimits): NaN and ±Infinity are
      // refused, ints beyond 2^53 stay exact BigInts, which the response writer serialises.
      return call.result.then((result) => ({ result }));
    },
  };
  return node;
};

function describe(error: unknown): string {
  if (error instanceof StarlarkError) return error.backtrace();
  return messageOf(error);
}

/** One character at a position the interpreter reported (the manifest's, or a `.star` file's). */
function pointAt(filename: string, line: number, column: number): Range {
  return { filename, start: { line, column, byte: 0 }, end: { line, column: column + 1, byte: 0 } };
}
