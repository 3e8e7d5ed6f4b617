import { test } from 'node:test';
import assert from 'node:assert/strict';
import { map } from 'rxjs';
import { exitWith } from '../../graph/index.js';
import { graph, scope, summary, sync, testScheduler } from './helpers.js';

test('fan-out: branches run concurrently (forkJoin) and all outputs are available after the group', () => {
  testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
    const users = cold('--u|', { u: ['ann'] });
    const count = cold('----c|', { c: 7 });
    const g = graph([
      {
        type: 'parallel',
        branches: [
          { type: 'step', name: 'users', kind: 'sql', run: () => users },
          { type: 'step', name: 'count', kind: 'sql', run: () => count },
          { type: 'step', name: 'now', kind: 'expr', run: () => 'sync' },
        ],
      },
      { type: 'exit', reads: ['users', 'count', 'now'], run: (s) => ({ ...s.steps }) },
    ]);
    expectObservable(g.run(scope())).toBe('----(x|)', {
      x: { kind: 'exit', step: 'respond#1', payload: { users: ['ann'], count: 7, now: 'sync' } },
    });
    // Both start at once: concurrency, not a chain.
    expectSubscriptions(users.subscriptions).toBe('^-!');
    expectSubscriptions(count.subscriptions).toBe('^---!');
  });
});

test('a branch can be a sub-sequence; a later step in it reads an earlier one of the same branch', () => {
  testScheduler().run(({ cold, expectObservable }) => {
    const g = graph([
      {
        type: 'parallel',
        branches: [
          [
            { type: 'step', name: 'a', kind: 'sql', run: () => cold('-a|', { a: 1 }) },
            { type: 'step', name: 'a2', kind: 'sql', reads: ['a'], run: (s) => cold('-b|', { b: (s.steps['a'] as number) + 1 }) },
          ],
          { type: 'step', name: 'b', kind: 'sql', run: () => cold('---c|', { c: 3 }) },
        ],
      },
      { type: 'exit', reads: ['a2', 'b'], run: (s) => [s.steps['a2'], s.steps['b']] },
    ]);
    expectObservable(g.run(scope())).toBe('---(x|)', { x: { kind: 'exit', step: 'respond#1', payload: [2, 3] } });
  });
});

test('the first error cancels the sibling branches; the outcome is a typed error naming the step', () => {
  testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
    const slow = cold('------s|');
    const failing = cold('--#', undefined, new Error('connection refused'));
    const g = graph([
      {
        type: 'parallel',
        branches: [
          { type: 'step', name: 'slow', kind: 'http', run: () => slow },
          { type: 'step', name: 'failing', kind: 'sql', run: () => failing },
        ],
      },
      { type: 'exit', run: () => 'unreached' },
    ]);
    expectObservable(g.run(scope()).pipe(map(summary))).toBe('--(x|)', {
      x: { kind: 'error', step: 'failing', stepKind: 'sql', category: 'internal' },
    });
    expectSubscriptions(slow.subscriptions).toBe('^-!');
  });
});

test('forkJoin pitfall: a branch that completes without a value is an error, not an empty group', () => {
  testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
    const other = cold('-----o|');
    const g = graph([
      {
        type: 'parallel',
        branches: [
          { type: 'step', name: 'empty', kind: 'redis', run: () => cold('-|') },
          { type: 'step', name: 'other', kind: 'sql', run: () => other },
        ],
      },
      { type: 'exit', run: () => 'unreached' },
    ]);
    expectObservable(g.run(scope()).pipe(map(summary))).toBe('-(x|)', {
      x: { kind: 'error', step: 'empty', stepKind: 'redis', category: 'empty' },
    });
    expectSubscriptions(other.subscriptions).toBe('^!');
  });
});

test('an exit raised inside a branch (exitWith) ends the run and cancels the siblings', () => {
  testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
    const slow = cold('------s|');
    const g = graph([
      {
        type: 'parallel',
        branches: [
          { type: 'step', name: 'slow', kind: 'sql', run: () => slow },
          { type: 'step', name: 'caught', kind: 'sql', run: () => cold('--e|', { e: exitWith(409) }) },
        ],
      },
      { type: 'exit', run: () => 'unreached' },
    ]);
    expectObservable(g.run(scope())).toBe('--(x|)', { x: { kind: 'exit', step: 'caught', payload: 409 } });
    expectSubscriptions(slow.subscriptions).toBe('^-!');
  });
});

test('a synchronous failure in a later branch ends the run; started asynchronous work is aborted', async () => {
  let signal: AbortSignal | undefined;
  const g = graph([
    {
      type: 'parallel',
      branches: [
        {
          type: 'step',
          name: 'io',
          kind: 'http',
          run: (_s, ctx) => {
            signal = ctx.signal;
            return new Promise(() => undefined);
          },
        },
        {
          type: 'step',
          name: 'boom',
          kind: 'starlark',
          run: () => {
            throw new Error('bad');
          },
        },
      ],
    },
    { type: 'exit', run: () => 'unreached' },
  ]);
  const outcome = await g.runPromise(scope());
  assert.equal(outcome.kind, 'error');
  assert.equal(outcome.kind === 'error' && outcome.error.step, 'boom');
  assert.equal(signal?.aborted, true);
});

test('a fully synchronous parallel group stays synchronous', () => {
  const g = graph([
    {
      type: 'parallel',
      branches: [
        { type: 'step', name: 'a', kind: 'expr', run: () => 1 },
        { type: 'step', name: 'b', kind: 'expr', run: () => 2 },
      ],
    },
    { type: 'exit', reads: ['a', 'b'], run: (s) => (s.steps['a'] as number) + (s.steps['b'] as number) },
  ]);
  assert.deepEqual(sync(g.start(scope())), { kind: 'exit', step: 'respond#1', payload: 3 });
});

test('an abandoned Promise branch that rejects later does not become an unhandled rejection', async () => {
  const unhandled: unknown[] = [];
  const listener = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', listener);
  try {
    const g = graph([
      {
        type: 'parallel',
        branches: [
          {
            type: 'step',
            name: 'io',
            kind: 'sql',
            // A driver rejects once its signal is aborted.
            run: (_s, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => setTimeout(() => reject(new Error('aborted')), 1))),
          },
          {
            type: 'step',
            name: 'boom',
            kind: 'expr',
            run: () => {
              throw new Error('sync failure');
            },
          },
        ],
      },
      { type: 'exit', run: () => 'unreached' },
    ]);
    const outcome = sync(g.start(scope()));
    assert.equal(outcome.kind === 'error' && outcome.error.step, 'boom');
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', listener);
  }
});
