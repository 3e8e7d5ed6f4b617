/**
 * The first slice of a call, on the event loop: most scripts are small (reshape a body, compute a
 * few fields) and finish in microseconds, for which a round trip to a worker thread costs many times
 * the script itself and makes the request asynchronous (a timer, a close watch). So a call first runs
 * here, under a slice of the step's budget: at most SLICE_STEPS steps and SLICE_MS of wall time, both
 * enforced by the interpreter (its built-ins are charged by the work they do and consult the clock,
 * so no single step holds the loop much past the slice). A script that finishes within it answers at
 * once, synchronously; one that runs out of the slice (and not of its own, smaller budget) is handed
 * to the pool, where it runs again from the start under its whole budget. Running it again is sound
 * because a script has no side effects: no I/O, `load` refused, `ctx` converted afresh for each run.
 *
 * What the event loop can lose to scripts is thus bounded per request by the slice, not by the
 * step's `timeout`: the design measured in bench/starlark-loop (docs/starlark.md).
 */
import { callFunction, DEFAULT_SIZE_LIMITS, StarlarkError, toJS, type StarlarkModule } from '../../starlark/index.js';
import { contextValue } from './context.js';
import { resultLimits, type CallContext } from './protocol.js';

/**
 * Steps of the slice. Small on purpose: the interpreter charges bulk work before doing it (one step
 * per KiB a string method scans, per 64 elements sorted or copied), so one admitted operation can
 * cost up to the steps left, and a step of bulk work is far dearer than a loop iteration (10,000
 * steps let one `count` scan 10 MB: 25 to 50 ms on this machine class, measured in
 * bench/starlark-loop). 500 steps are a few hundred loop iterations, or about 500 KB scanned, about
 * a millisecond: enough for the scripts that reshape a request, short enough for the loop.
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
