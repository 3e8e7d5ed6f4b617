import type { Lifetime } from './cancel.js';
import { chain, isPending, type Eventual, type Exec, type Signal } from './exec.js';
import type { GraphScope } from './types.js';

/**
 * A sequence is a chain. It is a plain loop while its nodes are synchronous; at the first node that
 * goes asynchronous the rest of the chain is attached to that node's Observable and continues
 * synchronously again from there. So the chain of subscriptions only exists for the part of a run
 * that really waits: a sequence with one I/O step costs one continuation, not one per step.
 * (The continuation is `chain` from exec.ts: `mergeMap` written out.)
 */
export function compileSequence<S extends GraphScope>(execs: readonly Exec<S>[]): Exec<S> {
  const n = execs.length;
  if (n === 1) return execs[0]!;
  const from = (start: number, scope: S, life: Lifetime): Eventual<Signal> => {
    for (let i = start; i < n; i++) {
      const signal = execs[i]!(scope, life);
      if (signal === undefined) continue;
      if (isPending(signal)) {
        const next = i + 1;
        if (next === n) return signal;
        return chain(signal, (s) => (s !== undefined ? s : from(next, scope, life)));
      }
      return signal; // exit or stream: nothing after it runs
    }
    return undefined;
  };
  return (scope, life) => from(0, scope, life);
}
