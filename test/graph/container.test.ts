import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Observable, map } from 'rxjs';
import { exitWith, type ContainerNodeDef, type Ending, type NodeDef, type Outcome, type StreamOutcome } from '../../graph/index.js';
import { graph, scope, summary, sync, testScheduler, type Scope } from './helpers.js';

interface TxScope extends Scope {
  readonly tx?: { id: number };
}

/** A fake transaction that records its life: acquire, what ran on the client, commit or rollback. */
function transaction(body: NodeDef<Scope>[], log: string[], options: { asyncEnter?: boolean; catchCode?: string } = {}): ContainerNodeDef<Scope> {
  return {
    type: 'container',
    kind: 'transaction',
    name: 'tx',
    body,
    wrap: {
      enter: (outer) => {
        log.push('begin');
        const inner: TxScope = { ...outer, steps: outer.steps, tx: { id: 1 } };
        return options.asyncEnter ? Promise.resolve(inner) : inner;
      },
      leave: (_inner, ending: Ending) => {
        log.push(ending.kind === 'done' ? 'commit' : `rollback:${ending.kind}`);
        if (ending.kind === 'error' && options.catchCode !== undefined) {
          const code = (ending.error.cause as { code?: string } | undefined)?.code;
          if (code === options.catchCode) return exitWith({ status: 409 });
        }
        return ending.kind === 'done' ? 'committed' : undefined;
      },
    },
  };
}

const onClient = (name: string, log: string[], value: unknown = name): NodeDef<Scope> => ({
  type: 'step',
  name,
  kind: 'sql',
  run: (s) => {
    log.push(`${name} on tx ${(s as TxScope).tx?.id}`);
    return value;
  },
});

test('success: enter, body on the derived scope, commit; inner outputs stay addressable afterwards', () => {
  const log: string[] = [];
  const g = graph([
    transaction([onClient('a', log), onClient('b', log)], log),
    { type: 'exit', reads: ['a', 'b', 'tx'], run: (s) => [s.steps['a'], s.steps['b'], s.steps['tx']] },
  ]);
  assert.deepEqual(sync(g.start(scope())), { kind: 'exit', step: 'respond#1', payload: ['a', 'b', 'committed'] });
  assert.deepEqual(log, ['begin', 'a on tx 1', 'b on tx 1', 'commit']);
});

test('success with asynchronous enter and body (marble): commit after the last inner step', () => {
  const log: string[] = [];
  testScheduler().run(({ cold, expectObservable }) => {
    const g = graph([
      {
        type: 'container',
        kind: 'transaction',
        name: 'tx',
        body: [
          { type: 'step', name: 'ins', kind: 'sql', run: () => cold('--r|', { r: 1 }) },
          { type: 'step', name: 'upd', kind: 'sql', run: () => cold('-r|', { r: 2 }) },
        ],
        wrap: {
          enter: (outer) => cold('-c|', { c: { ...outer, steps: outer.steps, tx: { id: 7 } } }), // pool.connect()
          leave: (_inner, ending) => {
            log.push(ending.kind);
            return cold('-k|', { k: 'committed' }); // COMMIT round trip
          },
        },
      },
      { type: 'exit', reads: ['ins', 'upd', 'tx'], run: (s) => [s.steps['ins'], s.steps['upd'], s.steps['tx']] },
    ]);
    expectObservable(g.run(scope())).toBe('-----(x|)', { x: { kind: 'exit', step: 'respond#1', payload: [1, 2, 'committed'] } });
  });
  assert.deepEqual(log, ['done']);
});

test('exit inside the body: leave sees "exit" (rollback) and the exit outcome passes through', () => {
  const log: string[] = [];
  const g = graph([
    transaction([onClient('a', log), { type: 'exit', condition: () => true, run: () => 'early' }, onClient('b', log)], log),
    { type: 'exit', run: () => 'late' },
  ]);
  assert.deepEqual(sync(g.start(scope())), { kind: 'exit', step: 'respond#1', payload: 'early' });
  assert.deepEqual(log, ['begin', 'a on tx 1', 'rollback:exit']);
});

test('error inside the body: leave sees "error" (rollback) and the typed error propagates', async () => {
  const log: string[] = [];
  const g = graph([
    transaction([onClient('a', log), { type: 'step', name: 'bad', kind: 'sql', run: () => Promise.reject(new Error('boom')) }], log),
    { type: 'exit', run: () => 'unreached' },
  ]);
  const outcome = await g.runPromise(scope());
  assert.deepEqual(summary(outcome), { kind: 'error', step: 'bad', stepKind: 'sql', category: 'internal' });
  assert.deepEqual(log, ['begin', 'a on tx 1', 'rollback:error']);
});

test('leave may turn an error into an exit (catch "23505" after rollback)', async () => {
  const log: string[] = [];
  const duplicate = Object.assign(new Error('duplicate key'), { code: '23505' });
  const g = graph([
    transaction([{ type: 'step', name: 'ins', kind: 'sql', run: () => Promise.reject(duplicate) }], log, { catchCode: '23505' }),
    { type: 'exit', run: () => 'created' },
  ]);
  assert.deepEqual(await g.runPromise(scope()), { kind: 'exit', step: 'tx', payload: { status: 409 } });
  assert.deepEqual(log, ['begin', 'rollback:error']);
});

test('cancellation while the body runs: leave sees "cancel" exactly once (marble)', () => {
  const log: string[] = [];
  testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
    const slow = cold('-----r|');
    const g = graph([transaction([{ type: 'step', name: 'slow', kind: 'sql', run: () => slow }], log), { type: 'exit', run: () => 'unreached' }]);
    expectObservable(g.run(scope()), '^--!').toBe('---');
    expectSubscriptions(slow.subscriptions).toBe('^--!');
  });
  assert.deepEqual(log, ['begin', 'rollback:cancel']);
});

test('a failing parallel sibling cancels a transaction in another branch (leave "cancel")', () => {
  const log: string[] = [];
  testScheduler().run(({ cold, expectObservable }) => {
    const g = graph([
      {
        type: 'parallel',
        branches: [
          transaction([{ type: 'step', name: 'slow', kind: 'sql', run: () => cold('-----r|') }], log),
          { type: 'step', name: 'bad', kind: 'http', run: () => cold('--#') },
        ],
      },
      { type: 'exit', run: () => 'unreached' },
    ]);
    expectObservable(g.run(scope()).pipe(map(summary))).toBe('--(x|)', {
      x: { kind: 'error', step: 'bad', stepKind: 'http', category: 'internal' },
    });
  });
  assert.deepEqual(log, ['begin', 'rollback:cancel']);
});

test('an abandoned transaction (sibling failed synchronously before it was subscribed) is still left', () => {
  const log: string[] = [];
  const g = graph([
    {
      type: 'parallel',
      branches: [
        transaction([{ type: 'step', name: 'slow', kind: 'sql', run: () => new Observable(() => undefined) }], log),
        {
          type: 'step',
          name: 'bad',
          kind: 'expr',
          run: () => {
            throw new Error('sync failure');
          },
        },
      ],
    },
    { type: 'exit', run: () => 'unreached' },
  ]);
  const outcome = sync(g.start(scope())) as Outcome;
  assert.equal(outcome.kind === 'error' && outcome.error.step, 'bad');
  assert.deepEqual(log, ['begin', 'rollback:cancel']);
});

test('a Promise-based enter that resolves after cancellation is left at once (no leaked client)', async () => {
  const log: string[] = [];
  const g = graph([transaction([onClient('a', log)], log, { asyncEnter: true }), { type: 'exit', run: () => 'unreached' }]);
  const subscription = g.run(scope()).subscribe();
  subscription.unsubscribe(); // before the client arrives
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(log, ['begin', 'rollback:cancel']);
});

test('a failing leave (commit) fails the container with its own error', () => {
  const g = graph([
    {
      type: 'container',
      kind: 'transaction',
      name: 'tx',
      body: [{ type: 'step', name: 'a', kind: 'sql', run: () => 1 }],
      wrap: {
        leave: () => {
          throw new Error('commit failed: serialization failure');
        },
      },
    },
    { type: 'exit', run: () => 'unreached' },
  ]);
  assert.deepEqual(summary(sync(g.start(scope()))), { kind: 'error', step: 'tx', stepKind: 'transaction', category: 'internal' });
});

test('a stream ending inside a container: leave waits for the stream to be disposed', () => {
  for (const how of ['complete', 'error', 'cancel'] as const) {
    const endings: string[] = [];
    const g = graph([
      {
        type: 'container',
        kind: 'transaction',
        name: 'tx',
        body: [{ type: 'sink', run: () => ({ source: [1] }) }], // e.g. a cursor on the transaction's client
        wrap: {
          leave: (_inner, ending) => {
            endings.push(ending.kind === 'stream' ? `stream:${ending.end}` : ending.kind);
          },
        },
      },
    ]);
    const outcome = sync(g.start(scope())) as StreamOutcome;
    assert.equal(outcome.kind, 'stream');
    assert.deepEqual(endings, [], 'not left while the stream is still to be consumed');
    outcome.dispose(how, how === 'error' ? new Error('cursor failed') : undefined);
    outcome.dispose('complete');
    assert.deepEqual(endings, [`stream:${how}`]);
  }
});

test('a failing leave on cancellation is reported to onTeardownError, never thrown', async () => {
  const reported: string[] = [];
  const g = graph(
    [
      {
        type: 'container',
        kind: 'transaction',
        name: 'tx',
        body: [{ type: 'step', name: 'wait', kind: 'sql', run: () => new Observable(() => undefined) }],
        wrap: { leave: () => Promise.reject(new Error('rollback failed: connection lost')) },
      },
      { type: 'exit', run: () => 'unreached' },
    ],
    { onTeardownError: (error) => reported.push(`${error.step}: ${(error.cause as Error).message}`) },
  );
  g.run(scope()).subscribe().unsubscribe();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(reported, ['tx: rollback failed: connection lost']);
});

test('leave may answer with exitWith on any awaited ending (done, exit), synchronously or asynchronously', async () => {
  const tx = (leaveAsync: boolean, body: NodeDef<Scope>[]): ContainerNodeDef<Scope> => ({
    type: 'container',
    kind: 'transaction',
    name: 'tx',
    body,
    wrap: {
      leave: (_inner, ending) => {
        const answer = exitWith({ left: ending.kind });
        return leaveAsync ? Promise.resolve(answer) : answer;
      },
    },
  });
  const step: NodeDef<Scope> = { type: 'step', name: 'a', kind: 'expr', run: () => 1 };
  const respond: NodeDef<Scope> = { type: 'exit', run: () => 'body' };
  for (const leaveAsync of [false, true]) {
    const cases: [NodeDef<Scope>, 'done' | 'exit'][] = [
      [step, 'done'],
      [respond, 'exit'],
    ];
    for (const [body, kind] of cases) {
      const after: NodeDef<Scope>[] = kind === 'done' ? [{ type: 'exit', run: () => 'after' }] : [];
      const g = graph([tx(leaveAsync, [body]), ...after]);
      assert.deepEqual(await g.runPromise(scope()), { kind: 'exit', step: 'tx', payload: { left: kind } });
    }
  }
});
