import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isObservable, of } from 'rxjs';
import type { Outcome } from '../../graph/index.js';
import { graph, scope } from './helpers.js';

const syncGraph = () =>
  graph([
    { type: 'step', name: 'sum', kind: 'expr', run: (s) => (s.input as number) + 1 },
    { type: 'exit', reads: ['sum'], run: (s) => ({ status: 200, body: s.steps['sum'] }) },
  ]);

test('fast path: a fully synchronous graph returns its outcome from start(), not an Observable', () => {
  const outcome = syncGraph().start(scope(41));
  assert.ok(!isObservable(outcome));
  assert.deepEqual(outcome, { kind: 'exit', step: 'respond#1', payload: { status: 200, body: 42 } });
});

test('run() of a synchronous graph emits and completes during subscribe (no event-loop hop)', () => {
  const seen: Outcome[] = [];
  let completed = false;
  syncGraph()
    .run(scope(1))
    .subscribe({ next: (o) => seen.push(o), complete: () => (completed = true) });
  // Still inside the same synchronous turn.
  assert.equal(completed, true);
  assert.deepEqual(seen, [{ kind: 'exit', step: 'respond#1', payload: { status: 200, body: 2 } }]);
});

test('run() is cold: each subscription is a new run with its own scope', () => {
  let runs = 0;
  const g = graph([{ type: 'exit', run: () => ++runs }]);
  const run$ = g.run(scope());
  run$.subscribe();
  run$.subscribe();
  assert.equal(runs, 2);
});

test('start() returns an Observable only once a step is really asynchronous; steps before it ran synchronously', async () => {
  const order: string[] = [];
  const g = graph([
    { type: 'step', name: 'a', kind: 'expr', run: () => order.push('a') },
    { type: 'step', name: 'b', kind: 'sql', run: () => Promise.resolve(order.push('b')) },
    { type: 'step', name: 'c', kind: 'expr', run: () => order.push('c') },
    { type: 'exit', run: () => order.join() },
  ]);
  const started = g.start(scope());
  assert.ok(isObservable(started));
  assert.deepEqual(order, ['a', 'b']);
  const outcome = await new Promise<Outcome>((resolve) => (started as import('rxjs').Observable<Outcome>).subscribe(resolve));
  assert.deepEqual(outcome, { kind: 'exit', step: 'respond#1', payload: 'a,b,c' });
});

test('runPromise resolves with the outcome for synchronous and asynchronous graphs', async () => {
  assert.deepEqual(await syncGraph().runPromise(scope(2)), { kind: 'exit', step: 'respond#1', payload: { status: 200, body: 3 } });
  const g = graph([
    { type: 'step', name: 'a', kind: 'sql', run: () => of(5) },
    { type: 'exit', reads: ['a'], run: (s) => s.steps['a'] },
  ]);
  assert.deepEqual(await g.runPromise(scope()), { kind: 'exit', step: 'respond#1', payload: 5 });
});
