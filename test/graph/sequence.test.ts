import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isObservable, map, of } from 'rxjs';
import { asValue, exitWith } from '../../graph/index.js';
import { graph, scope, summary, sync, testScheduler } from './helpers.js';

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
  assert.deepEqual(sync(g.start(scope())), { kind: 'done' });
});

test('a conditional respond ends the run when true: nothing after it runs', () => {
  let after = 0;
  const g = graph([
    { type: 'step', name: 'a', kind: 'expr', run: (s) => s.input },
    { type: 'exit', reads: ['a'], condition: (s) => s.steps['a'] === 'stop', run: () => 404 },
    { type: 'step', name: 'b', kind: 'expr', run: () => ++after },
    { type: 'exit', run: () => 200 },
  ]);
  assert.deepEqual(sync(g.start(scope('stop'))), { kind: 'exit', step: 'respond#1', payload: 404 });
  assert.equal(after, 0);
  const s = scope('go');
  assert.deepEqual(sync(g.start(s)), { kind: 'exit', step: 'respond#2', payload: 200 });
  assert.equal(after, 1);
  assert.deepEqual(s.steps, { a: 'go', b: 1 });
});

test('early exit after an asynchronous step, in virtual time: true exits, false falls through', () => {
  testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
    const q = cold('--a|', { a: 0 });
    const later = cold('-b|', { b: 'later' });
    const g = graph([
      { type: 'step', name: 'q', kind: 'sql', run: () => q },
      { type: 'exit', reads: ['q'], condition: (s) => s.steps['q'] === 0, run: () => 'not found' },
      { type: 'step', name: 'later', kind: 'sql', run: () => later },
      { type: 'exit', reads: ['later'], run: (s) => s.steps['later'] },
    ]);
    expectObservable(g.run(scope())).toBe('--(x|)', { x: { kind: 'exit', step: 'respond#1', payload: 'not found' } });
    expectSubscriptions(later.subscriptions).toBe([]);
  });
  testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
    const q = cold('--a|', { a: 1 });
    const later = cold('-b|', { b: 'later' });
    const g = graph([
      { type: 'step', name: 'q', kind: 'sql', run: () => q },
      { type: 'exit', reads: ['q'], condition: (s) => s.steps['q'] === 0, run: () => 'not found' },
      { type: 'step', name: 'later', kind: 'sql', run: () => later },
      { type: 'exit', reads: ['later'], run: (s) => s.steps['later'] },
    ]);
    expectObservable(g.run(scope())).toBe('---(x|)', { x: { kind: 'exit', step: 'respond#2', payload: 'later' } });
    expectSubscriptions(later.subscriptions).toBe('--^!');
  });
});

test('exitWith() from a step ends the run with its payload (a caught error becomes a response)', async () => {
  const g = graph([
    {
      type: 'step',
      name: 'insert',
      kind: 'sql',
      run: () => Promise.reject(Object.assign(new Error('duplicate key'), { code: '23505' })).catch(() => exitWith({ status: 409 })),
    },
    { type: 'exit', run: () => ({ status: 201 }) },
  ]);
  assert.deepEqual(await g.runPromise(scope()), { kind: 'exit', step: 'insert', payload: { status: 409 } });
  const early = graph([
    { type: 'step', name: 'a', kind: 'expr', run: () => exitWith('early') },
    { type: 'exit', run: () => 'late' },
  ]);
  assert.deepEqual(sync(early.start(scope())), { kind: 'exit', step: 'a', payload: 'early' });
});

test('asValue() stores a Promise or an Observable as the output instead of awaiting it', () => {
  const rows = of(1, 2, 3);
  const g = graph([
    { type: 'step', name: 'q', kind: 'sql', run: () => asValue(rows) },
    { type: 'exit', reads: ['q'], run: (s) => ({ rows: s.steps['q'] }) },
  ]);
  const outcome = sync(g.start(scope()));
  assert.ok(!isObservable(outcome));
  assert.equal((outcome as { payload: { rows: unknown } }).payload.rows, rows);
});
