import { test } from 'node:test';
import assert from 'node:assert/strict';
import { map } from 'rxjs';
import { isLiveSource, isPulledSource, type Outcome, type StreamOutcome } from '../../graph/index.js';
import { graph, scope, summary, sync, testScheduler } from './helpers.js';

/** A source that records how far it was pulled: demand, not pushing, decides what is produced. */
function countingSource(limit: number): { source: AsyncIterable<number>; produced: () => number; returned: () => boolean } {
  let produced = 0;
  let returned = false;
  const source: AsyncIterable<number> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => (produced < limit ? { done: false, value: ++produced } : { done: true, value: undefined }),
      return: async () => {
        returned = true;
        return { done: true, value: undefined };
      },
    }),
  };
  return { source, produced: () => produced, returned: () => returned };
}

test('a stream step ends the run with a stream outcome carrying the source (marble)', () => {
  const rows = [{ id: 1 }, { id: 2 }];
  let outcome: StreamOutcome | undefined;
  testScheduler().run(({ cold, expectObservable }) => {
    const g = graph([
      { type: 'step', name: 'q', kind: 'sql', run: () => cold('--q|', { q: { stream: rows } }) },
      {
        type: 'sink',
        kind: 'stream',
        label: 'ndjson',
        reads: ['q'],
        run: (s) => ({ source: (s.steps['q'] as { stream: unknown[] }).stream, payload: { format: 'ndjson' } }),
      },
    ]);
    expectObservable(
      g.run(scope()).pipe(
        map((o) => {
          outcome = o as StreamOutcome;
          return summary(o);
        }),
      ),
    ).toBe('--(x|)', { x: { kind: 'stream', step: 'stream#1', payload: { format: 'ndjson' } } });
  });
  assert.equal(outcome?.source, rows, 'the source is handed on as is, to be pulled by the consumer');
});

test('nothing is produced beyond what the consumer pulls', async () => {
  const counted = countingSource(1_000_000);
  const g = graph([
    { type: 'step', name: 'q', kind: 'sql', run: () => Promise.resolve({ stream: counted.source }) },
    { type: 'sink', reads: ['q'], run: (s) => ({ source: (s.steps['q'] as { stream: AsyncIterable<number> }).stream }) },
  ]);
  const outcome = (await g.runPromise(scope())) as StreamOutcome;
  assert.equal(counted.produced(), 0, 'handing the stream on pulls nothing');
  const got: number[] = [];
  for await (const item of outcome.source as AsyncIterable<number>) {
    got.push(item);
    if (got.length === 3) break; // the client went away
  }
  assert.deepEqual(got, [1, 2, 3]);
  assert.equal(counted.produced(), 3);
  assert.equal(counted.returned(), true, 'leaving early tells the source to stop');
  outcome.dispose('cancel');
});

test('the run is released (signal aborted) only when the stream outcome is disposed, once', async () => {
  let signal: AbortSignal | undefined;
  const releases: unknown[] = [];
  const g = graph([
    {
      type: 'step',
      name: 'sub',
      kind: 'redis',
      run: (_s, ctx) => {
        signal = ctx.signal; // e.g. a SUBSCRIBE opened with the step's signal
        ctx.onRelease((reason) => void releases.push(reason));
        return Promise.resolve({ stream: [1, 2] });
      },
    },
    { type: 'sink', reads: ['sub'], run: (s) => ({ source: (s.steps['sub'] as { stream: number[] }).stream }) },
  ]);
  const outcome = (await g.runPromise(scope())) as StreamOutcome;
  assert.equal(outcome.kind, 'stream');
  assert.equal(signal?.aborted, false, 'a finished run that handed off a stream keeps its resources');
  assert.deepEqual(releases, []);
  outcome.dispose('cancel'); // the client went away
  outcome.dispose('complete'); // a second disposal is a no-op
  assert.equal(signal?.aborted, true);
  assert.equal(releases.length, 1);
});

test('a stream that completes releases with no reason; a failed one with its error', async () => {
  for (const [end, error] of [
    ['complete', undefined],
    ['error', new Error('cursor failed')],
  ] as const) {
    const reasons: unknown[] = [];
    const g = graph([
      {
        type: 'step',
        name: 'q',
        kind: 'sql',
        run: (_s, ctx) => {
          ctx.onRelease((r) => void reasons.push(r));
          return { stream: [] };
        },
      },
      { type: 'sink', reads: ['q'], run: (s) => ({ source: (s.steps['q'] as { stream: never[] }).stream }) },
    ]);
    const outcome = sync(g.start(scope())) as StreamOutcome;
    outcome.dispose(end, error);
    assert.deepEqual(reasons, [error]);
  }
});

test('a stream step with a false condition (when) is skipped', () => {
  const g = graph([
    { type: 'sink', condition: () => false, run: () => ({ source: [] }) },
    { type: 'exit', run: () => 'fallback' },
  ]);
  assert.deepEqual(sync(g.start(scope())), { kind: 'exit', step: 'respond#1', payload: 'fallback' });
});

test('a sink whose source cannot be pulled (not iterable) is an invalid-result error', () => {
  for (const source of ['nope', 42, null, { subscribe() {} }]) {
    const g = graph([{ type: 'sink', name: 'feed', run: () => ({ source }) as never }]);
    const outcome: Outcome = sync(g.start(scope()));
    assert.deepEqual(summary(outcome), { kind: 'error', step: 'feed', stepKind: 'stream', category: 'invalid-result' });
  }
});

test('isPulledSource and isLiveSource', () => {
  assert.equal(isPulledSource([1]), true);
  assert.equal(isPulledSource(countingSource(1).source), true);
  assert.equal(isPulledSource('text'), false, 'a string is not a sequence of items');
  assert.equal(isLiveSource(Object.assign(countingSource(1).source, { live: true })), true);
  assert.equal(isLiveSource([1]), false);
});
