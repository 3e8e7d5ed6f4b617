/**
 * The first slice of a call, on the event loop: most scripts finish in microseconds, where a worker
 * round trip costs many times the script and makes the request asynchronous. So a call first runs
 * here under SLICE_STEPS and SLICE_MS (the interpreter charges built-ins by their work and checks the
 * clock inside them); one that outgrows the slice, not its own budget, runs again from the start on
 * the pool, which is sound because scripts have no side effects (no I/O, `load` refused, `ctx`
 * converted afresh). The loop thus loses at most a slice per request (bench/starlark-loop README).
 */
import { callFunction, DEFAULT_SIZE_LIMITS, StarlarkError, toJS, type StarlarkModule } from '../../starlark/index.js';
import { contextValue } from './context.js';
import { resultLimits, type CallContext } from './protocol.js';

/**
 * Steps of the slice. Small on purpose: bulk work is charged before it is done (a step per KiB
 * scanned, per 64 elements sorted), so one admitted step can be dear; 10,000 let one `count` hold the
 * loop 25 to 50 ms (bench/starlark-loop README "With the slice on the event loop"). 500 is about a
 * millisecond: enough to reshape a request.
 */
export const SLICE_STEPS = 500;
/** Wall time of the slice, in ms. */
export const SLICE_MS = 1;

/** The slice ran out: the call goes to the pool. */
export const NEEDS_POOL: unique symbol = Symbol('starlark.needsPool');

const RESULT_LIMITS = resultLimits(DEFAULT_SIZE_LIMITS.maxStringBytes);

export interface StepLimits {
  readonly maxSteps: number;
  readonly timeoutMs: number;
}

/**
 * Runs `execute(ctx)` under the slice: the result converted as the worker converts it, or
 * NEEDS_POOL, or the script's own failure (thrown, as the pool's call would reject with it).
 */
export function runSlice(module: StarlarkModule, ctx: CallContext, limits: StepLimits): unknown {
  const maxSteps = Math.min(limits.maxSteps, SLICE_STEPS);
  const timeoutMs = Math.min(limits.timeoutMs, SLICE_MS);
  try {
    return toJS(callFunction(module, 'execute', [contextValue(ctx)], { maxSteps, timeoutMs }), RESULT_LIMITS);
  } catch (error) {
    // Out of the slice, with budget left: the pool runs it whole. Out of its own budget: its failure.
    if (error instanceof StarlarkError) {
      if (error.kind === 'steps' && maxSteps < limits.maxSteps) return NEEDS_POOL;
      if (error.kind === 'timeout' && timeoutMs < limits.timeoutMs) return NEEDS_POOL;
    }
    throw error;
  }
}
