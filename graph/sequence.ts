import { Observable, Subscription } from 'rxjs';
import type { RunState } from './cancel.js';
import { isPending, type Eventual, type Exec, type Signal } from './exec.js';
import type { GraphScope } from './types.js';

/**
 * A sequence is a chain. It is a plain loop while its nodes are synchronous; at the first node that
 * goes asynchronous the rest of the chain is attached to that node's Observable and continues
 * synchronously again from there. So the chain of subscriptions only exists for the part of a run
 * that really waits: a sequence with one I/O step costs one continuation, not one per step.
 * (The continuation is `mergeMap` written out: one subscriber less per asynchronous step.)
 */
export function compileSequence<S extends GraphScope>(execs: readonly Exec<S>[]): Exec<S> {
  const n = execs.length;
  if (n === 1) return execs[0]!;
  const from = (start: number, scope: S, rt: RunState): Eventual<Signal> => {
    for (let i = start; i < n; i++) {
      const signal = execs[i]!(scope, rt);
      if (signal === undefined) continue;
      if (isPending(signal)) return i + 1 === n ? signal : continueAfter(signal, i + 1, scope, rt);
      return signal; // exit or stream: nothing after it runs
    }
    return undefined;
  };
  const continueAfter = (pending: Observable<Signal>, next: number, scope: S, rt: RunState): Observable<Signal> =>
    new Observable<Signal>((subscriber) => {
      const subscriptions = new Subscription();
      let got = false;
      subscriptions.add(
        pending.subscribe({
          next(signal) {
            got = true;
            if (signal !== undefined) {
              subscriber.next(signal);
              subscriber.complete();
              return;
            }
            let rest: Eventual<Signal>;
            try {
              rest = from(next, scope, rt);
            } catch (e) {
              subscriber.error(e);
              return;
            }
            if (isPending(rest)) subscriptions.add(rest.subscribe(subscriber));
            else {
              subscriber.next(rest);
              subscriber.complete();
            }
          },
          error(e) {
            subscriber.error(e);
          },
          complete() {
            if (!got) subscriber.error(new Error('internal: a node completed without a signal'));
          },
        }),
      );
      return subscriptions;
    });
  return (scope, rt) => from(0, scope, rt);
}
