import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstValueFrom, isObservable, map, type Observable } from 'rxjs';
import { follow, type Outcome } from '../../graph/index.js';
import { graph, scope, summary } from './helpers.js';

/**
 * The engine's Observables deliver to the engine's receivers directly (graph/direct.ts) and to
 * anything else through RxJS's `subscribe`: both must see the same run.
 */

const twoSteps = () =>
  graph([
    { type: 'step', name: 'a', kind: 'io', run: () => Promise.resolve(1) },
    { type: 'parallel', branches: [{ type: 'step', name: 'b', kind: 'io', run: (s) => Promise.resolve((s.steps.a as number) + 1) }] },
    { type: 'exit', reads: ['b'], run: (s) => ({ b: s.steps.b }) },
  ]);

function pending(result: Outcome | Observable<Outcome>): Observable<Outcome> {
  assert.ok(isObservable(result), 'expected the run to go asynchronous');
  return result;
}

test('an asynchronous run gives the same outcome followed directly and through RxJS operators', async () => {
  const viaOperators = await firstValueFrom(pending(twoSteps().start(scope())).pipe(map(summary)));
  const direct = await new Promise<unknown>((resolve, reject) => {
    let value: unknown;
    follow(pending(twoSteps().start(scope())), {
      next: (outcome) => {
        value = summary(outcome);
      },
      error: reject,
      complete: () => resolve(value),
    });
  });
  assert.deepEqual(viaOperators, { kind: 'exit', step: 'respond#1', payload: { b: 2 } });
  assert.deepEqual(direct, viaOperators);
});

test('unsubscribing through an operator, or stopping a direct receiver, tears the run down', async () => {
  for (const how of ['operator', 'direct'] as const) {
    const reasons: unknown[] = [];
    const hanging = graph([
      {
        type: 'step',
        name: 'wait',
        kind: 'io',
        run: (_s, ctx) => {
          ctx.onRelease((reason) => reasons.push(reason));
          return new Promise(() => {});
        },
      },
      { type: 'exit', run: () => 'never' },
    ]);
    const outcome = pending(hanging.start(scope()));
    const connection = how === 'operator' ? outcome.pipe(map(summary)).subscribe() : follow(outcome, { next: () => {}, error: () => {}, complete: () => {} });
    await new Promise((resolve) => setImmediate(resolve));
    connection.unsubscribe();
    assert.equal(reasons.length, 1, `${how}: the step was released once`);
    assert.notEqual(reasons[0], undefined, `${how}: released as cancelled, with a reason`);
  }
});
