/**
 * Settle-once: the one rule every asynchronous piece of the engine follows. A pending step result,
 * a run being followed, a container waiting to be left, a node's context can each be ended by
 * several racing events (a value, a failure, a time-out, an unsubscribe, the end of the run); the
 * first one wins and owns the ending, every later one is ignored. rxjs shares the same logic across
 * its operators (`Subscriber.isStopped`, `Subscription.closed`); writing it once here keeps the
 * engine's "exactly once" guarantees (leave, release, outcome) in one shape instead of a flag
 * handled differently per class.
 *
 * A field and a function rather than a base class, on purpose: under tsx/esbuild `keepNames`
 * (tests and benchmarks), constructing a subclass whose parent class had its `name` redefined is
 * about 20 times slower on Node 20 (160 ns against 9 ns), and a StepContext is built for every
 * node of every run. For the same reason the per-run classes declare their fields with `declare`
 * and assign them in the constructor: compiled for ES2022, an initialised field (or a parameter
 * property) is defined with [[DefineOwnProperty]] semantics, which made constructing a StepContext
 * about twice as slow (18 ns against 10 ns).
 */
export interface Settled {
  /** True once some event claimed the ending. */
  closed: boolean;
}

/** Claims the ending of `target`: true for the first caller only, who then does the ending's work. */
export function claim(target: Settled): boolean {
  if (target.closed) return false;
  target.closed = true;
  return true;
}
