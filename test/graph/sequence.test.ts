import { test } from 'node:test';
import assert from 'node:assert/strict';
import { map } from 'rxjs';
import { graph, scope, summary, testScheduler } from './helpers.js';

test('a sequence runs in order and each step reads earlier outputs from scope.steps', () => {
  testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
    const a = cold('--a|', { a: 1 });
    const b = cold('---b|', { b: 10 });
    const g = graph([
      { type: 'step', name: 'a', kind: 'sql', run: () => a },
      { type: 'step', name: 'b', kind: 'sql', reads: ['a'], run: () => b },
      { type: 'step', name: 'c', kind: 'expr', reads: ['a', 'b'], run: (s) => (s.steps['a'] as number) + (s.steps['b'] as number) },
      { type: 'exit', reads: ['c'], run: (s) => ({ status: 200, body: s.steps['c'] }) },
    ]);
    expectObservable(g.run(scope()).pipe(map(summary))).toBe('-----(x|)', {
      x: { kind: 'exit', step: 'respond#1', payload: { status: 200, body: 11 } },
    });
    // b starts only when a has produced its value; each is unsubscribed as soon as its value is in.
    expectSubscriptions(a.subscriptions).toBe('^-!');
    expectSubscriptions(b.subscriptions).toBe('--^--!');
  });
});

test('a step that completes without a value is an "empty" error naming the step', () => {
  testScheduler().run(({ cold, expectObservable }) => {
    const g = graph([
      { type: 'step', name: 'q', kind: 'sql', run: () => cold('--|') },
      { type: 'exit', run: () => 'never' },
    ]);
    expectObservable(g.run(scope()).pipe(map(summary))).toBe('--(x|)', {
      x: { kind: 'error', step: 'q', stepKind: 'sql', category: 'empty' },
    });
  });
});

test('a run that ends without exit or stream gives the done outcome', () => {
  const g = graph([{ type: 'step', name: 'a', kind: 'expr', run: () => 1 }]);
  assert.equal(g.mayFinishWithoutOutcome, true);
  assert.deepEqual(g.start(scope()), { kind: 'done' });
});
