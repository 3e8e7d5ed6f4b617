import { test } from 'node:test';
import assert from 'node:assert/strict';
import { map, throwError } from 'rxjs';
import { StepError, type Outcome } from '../../graph/index.js';
import { graph, scope, summary, sync, testScheduler } from './helpers.js';

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
