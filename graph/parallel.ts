import { type Observable, catchError, forkJoin, map, of, throwError, throwIfEmpty } from 'rxjs';
import { Category, StepError } from './errors.js';
import { isPending, type Exec, type Signal } from './exec.js';
import type { StepInfo } from './info.js';
import type { GraphScope } from './types.js';

/**
 * Carries an exit produced inside a branch (a step returning `exitWith`) through forkJoin's error
 * channel, so that it cancels the sibling branches exactly like a failure does; unwrapped after.
 */
class Terminal {
  constructor(readonly signal: Exclude<Signal, undefined>) {}
}

/**
 * `parallel`: every branch is started in declaration order; the synchronous ones finish on the
 * spot, the asynchronous ones are joined with `forkJoin`. All outputs are in `scope.steps` after it.
 *
 * - forkJoin completes *empty* (no value) if a branch completes without a value, which would make
 *   the group silently vanish. Each branch Observable emits exactly one value by construction
 *   (steps turn an empty result into a StepError); the `throwIfEmpty` guard makes that a checked
 *   invariant rather than an assumption.
 * - The first error (or exit) cancels the other branches: forkJoin unsubscribes them, which tears
 *   down their steps. A synchronous failure of a later branch leaves earlier asynchronous branches
 *   unsubscribed; the run ends with that failure, and the end of the lifetime they ran in reaches
 *   whatever they had started (cancel.ts).
 */
export function compileParallel<S extends GraphScope>(branches: readonly Exec<S>[], info: StepInfo): Exec<S> {
  const emptyBranch = (): StepError => new StepError(info, `a branch of "${info.id}" completed without a value`, undefined, Category.empty);
  const guard = (branch: Observable<Signal>): Observable<Signal> =>
    branch.pipe(
      map((signal) => {
        if (signal !== undefined) throw new Terminal(signal);
        return signal;
      }),
      throwIfEmpty(emptyBranch),
    );
  return (scope, life) => {
    let pending: Observable<Signal>[] | undefined;
    for (const branch of branches) {
      const signal = branch(scope, life);
      if (signal === undefined) continue;
      if (isPending(signal)) (pending ??= []).push(guard(signal));
      else return signal;
    }
    if (pending === undefined) return undefined;
    return forkJoin(pending).pipe(
      map((): Signal => undefined),
      catchError((e: unknown) => (e instanceof Terminal ? of(e.signal) : throwError(() => e))),
    );
  };
}
