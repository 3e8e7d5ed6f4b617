import { test } from 'node:test';
import assert from 'node:assert/strict';
import { map, throwError } from 'rxjs';
import { GRAPH_STEP_ID, StepError, messageOf, type Classifier, type NodeDef, type Outcome } from '../../graph/index.js';
import { graph, scope, summary, sync, testScheduler, type Scope } from './helpers.js';

test('a synchronous throw becomes an error outcome: StepError with step, kind, cause, category', () => {
  const cause = new Error('division by zero');
  const g = graph([
    {
      type: 'step',
      name: 'score',
      kind: 'starlark',
      run: () => {
        throw cause;
      },
    },
    { type: 'exit', run: () => 'unreached' },
  ]);
  const outcome = sync(g.start(scope()));
  assert.equal(outcome.kind, 'error');
  if (outcome.kind !== 'error') return;
  assert.ok(outcome.error instanceof StepError);
  assert.equal(outcome.error.step, 'score');
  assert.equal(outcome.error.kind, 'starlark');
  assert.equal(outcome.error.cause, cause);
  assert.equal(outcome.error.category, 'internal');
  assert.match(outcome.error.message, /score.*starlark.*division by zero/);
});

test('classification: the node classifier first, then the graph classifier, else internal', async () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  const classify = (cause: unknown) => ((cause as { code?: string }).code === 'ECONNREFUSED' ? 'dependency-unavailable' : undefined);
  const g = graph(
    [
      { type: 'step', name: 'a', kind: 'sql', run: () => Promise.reject(refused) },
      { type: 'exit', run: () => 'unreached' },
    ],
    { classify },
  );
  const outcome = await g.runPromise(scope());
  assert.equal(outcome.kind === 'error' && outcome.error.category, 'dependency-unavailable');

  const own = graph(
    [
      { type: 'step', name: 'a', kind: 'sql', classify: () => 'conflict', run: () => Promise.reject(refused) },
      { type: 'exit', run: () => 'unreached' },
    ],
    { classify },
  );
  const o2 = await own.runPromise(scope());
  assert.equal(o2.kind === 'error' && o2.error.category, 'conflict');
  assert.equal(o2.kind === 'error' && o2.error.step, 'a');
});

test('an asynchronous failure is typed the same way (marble)', () => {
  testScheduler().run(({ cold, expectObservable }) => {
    const g = graph([
      { type: 'step', name: 'ok', kind: 'sql', run: () => cold('-a|', { a: 1 }) },
      { type: 'step', name: 'bad', kind: 'http', run: () => cold('--#', undefined, new Error('502')) },
      { type: 'exit', run: () => 'unreached' },
    ]);
    expectObservable(g.run(scope()).pipe(map(summary))).toBe('---(x|)', {
      x: { kind: 'error', step: 'bad', stepKind: 'http', category: 'internal' },
    });
  });
});

test('a failing condition or respond body names the respond node', () => {
  const g = graph([
    {
      type: 'exit',
      id: 'not-found',
      condition: () => {
        throw new Error('condition must be a bool');
      },
      run: () => 1,
    },
    { type: 'exit', run: () => 2 },
  ]);
  const outcome = sync(g.start(scope()));
  assert.equal(outcome.kind === 'error' && outcome.error.step, 'not-found');
  assert.equal(outcome.kind === 'error' && outcome.error.kind, 'respond');
  const body = graph([{ type: 'exit', run: () => throwError(() => new Error('x')) }]);
  let o2: Outcome | undefined;
  body.run(scope()).subscribe((o) => (o2 = o));
  assert.equal(o2?.kind === 'error' && o2.error.step, 'respond#1');
});

test('the graph-wide classifier sees every node kind and phase, after the node classifier', async () => {
  const seen: string[] = [];
  const classify: Classifier = (cause, step) => {
    seen.push(`${step.id}/${step.kind}`);
    return (cause as { code?: string }).code === '40001' ? 'conflict' : undefined;
  };
  const serialization = () => Object.assign(new Error('could not serialize access'), { code: '40001' });
  const failing: [string, NodeDef<Scope>][] = [
    [
      'sync step',
      {
        type: 'step',
        name: 'a',
        kind: 'sql',
        run: () => {
          throw serialization();
        },
      },
    ],
    ['promise step', { type: 'step', name: 'a', kind: 'sql', run: () => Promise.reject(serialization()) }],
    ['observable step', { type: 'step', name: 'a', kind: 'sql', run: () => throwError(serialization) }],
    ['enter', { type: 'container', kind: 'transaction', name: 'tx', body: [], wrap: { enter: () => Promise.reject(serialization()) } }],
    [
      'leave (commit)',
      {
        type: 'container',
        kind: 'transaction',
        name: 'tx',
        body: [{ type: 'step', name: 'a', kind: 'sql', run: () => 1 }],
        wrap: { leave: () => Promise.reject(serialization()) },
      },
    ],
  ];
  for (const [what, node] of failing) {
    seen.length = 0;
    const outcome = await graph([node, { type: 'exit', run: () => 'unreached' }], { classify }).runPromise(scope());
    assert.equal(outcome.kind === 'error' && outcome.error.category, 'conflict', what);
    assert.deepEqual(seen, [node.type === 'container' ? 'tx/transaction' : 'a/sql'], what);
  }
  // The node's own classifier answers first; the graph's is not asked.
  seen.length = 0;
  const own = await graph(
    [
      { type: 'step', name: 'a', kind: 'sql', classify: () => 'retry', run: () => Promise.reject(serialization()) },
      { type: 'exit', run: () => 1 },
    ],
    { classify },
  ).runPromise(scope());
  assert.equal(own.kind === 'error' && own.error.category, 'retry');
  assert.deepEqual(seen, []);
});

test("the engine's own categories are not reclassified, and a throwing classifier counts as no answer", async () => {
  const classify: Classifier = () => {
    throw new Error('a bug in the classifier');
  };
  const timedOut = await graph(
    [
      { type: 'step', name: 'a', kind: 'sql', timeout: 2, run: () => new Promise(() => undefined) },
      { type: 'exit', run: () => 1 },
    ],
    { classify: () => 'dependency-unavailable' },
  ).runPromise(scope());
  assert.equal(timedOut.kind === 'error' && timedOut.error.category, 'timeout');
  // Classified inside a promise callback: a throw there must still give an outcome, not an unhandled rejection.
  const failed = await graph(
    [
      { type: 'step', name: 'a', kind: 'sql', run: () => Promise.reject(new Error('x')) },
      { type: 'exit', run: () => 1 },
    ],
    {
      classify,
    },
  ).runPromise(scope());
  assert.deepEqual(summary(failed), { kind: 'error', step: 'a', stepKind: 'sql', category: 'internal' });
});

test('failures outside any step name GRAPH_STEP_ID, never a step', async () => {
  const external = new AbortController();
  const pending = graph([
    { type: 'step', name: 'a', kind: 'sql', run: () => new Promise(() => undefined) },
    { type: 'exit', run: () => 1 },
  ]).runPromise(scope(), external.signal);
  external.abort();
  const outcome = await pending;
  assert.equal(outcome.kind === 'error' && outcome.error.step, GRAPH_STEP_ID);
  assert.equal(GRAPH_STEP_ID, '<graph>');
});

test('messageOf never throws', () => {
  assert.equal(messageOf(new Error('boom')), 'boom');
  assert.equal(messageOf(42), '42');
  assert.equal(messageOf(Object.create(null)), 'unprintable error');
});
