import { mergeMap } from 'rxjs';
import { isPending, toObservable, type Eventual, type Exec, type Signal } from './exec.js';
import type { GraphScope } from './types.js';

/**
 * A sequence is a chain. It is a plain loop while its nodes are synchronous; at the first node that
 * goes asynchronous the rest of the chain is attached to that node's Observable (one `mergeMap`),
 * and continues synchronously again from there. So the operator chain only exists for the part of a
 * run that really waits, and a sequence with one I/O step costs one operator, not one per step.
 */
export function compileSequence<S extends GraphScope>(execs: readonly Exec<S>[]): Exec<S> {
  const n = execs.length;
  if (n === 1) return execs[0]!;
  const from = (start: number, scope: S, rt: Parameters<Exec<S>>[1]): Eventual<Signal> => {
    for (let i = start; i < n; i++) {
      const signal = execs[i]!(scope, rt);
      if (signal === undefined) continue;
      if (isPending(signal)) {
        const next = i + 1;
        if (next === n) return signal;
        return signal.pipe(mergeMap((s) => (s !== undefined ? [s] : toObservable(from(next, scope, rt)))));
      }
      return signal; // exit or stream: nothing after it runs
    }
    return undefined;
  };
  return (scope, rt) => from(0, scope, rt);
}
