import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Observable, map } from 'rxjs';
import { GRAPH_STEP_ID } from '../../graph/index.js';
import { graph, scope, summary, sync, testScheduler } from './helpers.js';

test('unsubscribing tears down every running step (marble)', () => {
  testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
    const a = cold('-----a|');
    const b = cold('--------b|');
    const g = graph([
      {
        type: 'parallel',
        branches: [
          { type: 'step', name: 'a', kind: 'sql', run: () => a },
          { type: 'step', name: 'b', kind: 'http', run: () => b },
        ],
      },
      { type: 'exit', run: () => 'unreached' },
    ]);
    expectObservable(g.run(scope()), '^--!').toBe('---');
    expectSubscriptions(a.subscriptions).toBe('^--!');
    expectSubscriptions(b.subscriptions).toBe('^--!');
  });
});

test('unsubscribing aborts the signal steps received, and runs their teardown', async () => {
  let signal: AbortSignal | undefined;
  let tornDown = 0;
  const g = graph([
    {
      type: 'step',
      name: 'wait',
      kind: 'http',
      run: (_s, ctx) => {
        signal = ctx.signal;
        return new Observable(() => () => void tornDown++);
      },
    },
    { type: 'exit', run: () => 'unreached' },
  ]);
  const subscription = g.run(scope()).subscribe();
  assert.equal(signal?.aborted, false);
  subscription.unsubscribe();
  assert.equal(signal?.aborted, true);
  assert.equal(tornDown, 1);
});

test('an external AbortSignal cancels the run: steps see the abort, the outcome is "cancelled"', async () => {
  const external = new AbortController();
  let seen: AbortSignal | undefined;
  const g = graph([
    {
      type: 'step',
      name: 'slow',
      kind: 'sql',
      run: (_s, ctx) => {
        seen = ctx.signal;
        return new Promise(() => undefined);
      },
    },
    { type: 'exit', run: () => 'unreached' },
  ]);
  const pending = g.runPromise(scope(), external.signal);
  external.abort(new Error('client went away'));
  const outcome = await pending;
  assert.deepEqual(summary(outcome), { kind: 'error', step: GRAPH_STEP_ID, stepKind: 'graph', category: 'cancelled' });
  assert.equal(seen?.aborted, true);
  // Already aborted before the run: nothing runs.
  let ran = false;
  const o2 = sync(graph([{ type: 'exit', run: () => (ran = true) }]).start(scope(), external.signal));
  assert.equal(o2.kind === 'error' && o2.error.category, 'cancelled');
  assert.equal(ran, false);
});

test('the signal is also aborted when the run ends normally (nothing outlives a finished run)', async () => {
  let signal: AbortSignal | undefined;
  const g = graph([
    {
      type: 'step',
      name: 'a',
      kind: 'sql',
      run: (_s, ctx) => {
        signal = ctx.signal;
        return Promise.resolve(1);
      },
    },
    { type: 'exit', reads: ['a'], run: (s) => s.steps['a'] },
  ]);
  assert.deepEqual(await g.runPromise(scope()), { kind: 'exit', step: 'respond#1', payload: 1 });
  assert.equal(signal?.aborted, true);
});

test('a time-out produces a typed StepTimeoutError and cancels the step (marble)', () => {
  testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
    const slow = cold('------a|');
    const g = graph([
      { type: 'step', name: 'slow', kind: 'http', timeout: 3, run: () => slow },
      { type: 'exit', run: () => 'unreached' },
    ]);
    expectObservable(g.run(scope()).pipe(map(summary))).toBe('---(x|)', {
      x: { kind: 'error', step: 'slow', stepKind: 'http', category: 'timeout' },
    });
    expectSubscriptions(slow.subscriptions).toBe('^--!');
  });
  testScheduler().run(({ cold, expectObservable }) => {
    const g = graph([
      { type: 'step', name: 'fast', kind: 'http', timeout: 3, run: () => cold('--a|', { a: 1 }) },
      { type: 'exit', reads: ['fast'], run: (s) => s.steps['fast'] },
    ]);
    expectObservable(g.run(scope())).toBe('--(x|)', { x: { kind: 'exit', step: 'respond#1', payload: 1 } });
  });
});

test('a time-out on a Promise step aborts its signal and names the limit', async () => {
  let signal: AbortSignal | undefined;
  const g = graph([
    {
      type: 'step',
      name: 'hang',
      kind: 'sql',
      timeout: 5,
      run: (_s, ctx) => {
        signal = ctx.signal;
        return new Promise(() => undefined);
      },
    },
    { type: 'exit', run: () => 'unreached' },
  ]);
  const outcome = await g.runPromise(scope());
  assert.equal(outcome.kind, 'error');
  if (outcome.kind !== 'error') return;
  assert.equal(outcome.error.name, 'StepTimeoutError');
  assert.equal(outcome.error.category, 'timeout');
  assert.equal((outcome.error as { timeoutMs?: number }).timeoutMs, 5);
  assert.equal(signal?.aborted, true);
});
