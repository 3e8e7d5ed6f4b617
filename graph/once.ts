/**
 * Settle-once: the one rule every asynchronous piece of the engine follows. A pending result, a
 * followed run, a container being left, a node's context can each be ended by racing events; the
 * first wins and owns the ending, later ones are ignored. Written once here so the engine's "exactly
 * once" guarantees (leave, release, outcome) have one shape.
 *
 * A field and a function, not a base class, and the per-run classes' fields `declare`d and assigned
 * in the constructor: a subclass under tsx `keepNames` and ES2022 field semantics each made building
 * a StepContext, done for every node of every run, several times slower (graph/README.md
 * "Measurements").
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
