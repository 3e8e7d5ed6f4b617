import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Observable, Subject, map } from 'rxjs';
import type { Outcome, StreamOutcome } from '../../graph/index.js';
import { graph, scope, summary, sync, testScheduler } from './helpers.js';

test('a stream step ends the run with a stream outcome carrying the source (marble)', () => {
  testScheduler().run(({ cold, expectObservable }) => {
    const rows = cold('-a-b-|', { a: { id: 1 }, b: { id: 2 } });
    const g = graph([
      { type: 'step', name: 'q', kind: 'sql', run: () => cold('--q|', { q: { stream: rows } }) },
      {
        type: 'sink',
        kind: 'stream',
        label: 'ndjson',
        reads: ['q'],
        run: (s) => ({ source: (s.steps['q'] as { stream: Observable<unknown> }).stream, payload: { format: 'ndjson' } }),
      },
    ]);
    let outcome: StreamOutcome | undefined;
    expectObservable(
      g.run(scope()).pipe(
        map((o) => {
          outcome = o as StreamOutcome;
          return summary(o);
        }),
      ),
    ).toBe('--(x|)', { x: { kind: 'stream', step: 'stream#1', payload: { format: 'ndjson' } } });
    // The consumer (the HTTP layer) subscribes later; here at frame 3 in virtual time.
    expectObservable(new Observable((s) => outcome!.source.subscribe(s)), '---^').toBe('----a-b-|', { a: { id: 1 }, b: { id: 2 } });
  });
});

test('the run is released (signal aborted) only when the stream subscription is torn down', async () => {
  let signal: AbortSignal | undefined;
  const feed = new Subject<number>();
  let upstreamClosed = false;
  const g = graph([
    {
      type: 'step',
      name: 'sub',
      kind: 'redis',
      run: (_s, ctx) => {
        signal = ctx.signal; // e.g. a SUBSCRIBE connection opened with the run's signal
        return Promise.resolve({
          stream: new Observable<number>((s) => {
            const inner = feed.subscribe(s);
            return () => {
              upstreamClosed = true;
              inner.unsubscribe();
            };
          }),
        });
      },
    },
    { type: 'sink', reads: ['sub'], run: (s) => ({ source: (s.steps['sub'] as { stream: Observable<number> }).stream }) },
  ]);
  const outcome = await g.runPromise(scope());
  assert.equal(outcome.kind, 'stream');
  assert.equal(signal?.aborted, false, 'a finished run that handed off a stream keeps its resources');
  const got: unknown[] = [];
  const subscription = (outcome as StreamOutcome).source.subscribe((v) => got.push(v));
  feed.next(1);
  feed.next(2);
  subscription.unsubscribe(); // the client went away
  assert.deepEqual(got, [1, 2]);
  assert.equal(upstreamClosed, true);
  assert.equal(signal?.aborted, true);
});

test('a stream step with a false condition (when) is skipped', () => {
  const g = graph([
    { type: 'sink', condition: () => false, run: () => ({ source: new Subject() }) },
    { type: 'exit', run: () => 'fallback' },
  ]);
  assert.deepEqual(sync(g.start(scope())), { kind: 'exit', step: 'respond#1', payload: 'fallback' });
});

test('a sink that returns no Observable source is an invalid-result error', () => {
  const g = graph([{ type: 'sink', name: 'feed', run: () => ({ source: 'nope' }) as never }]);
  const outcome: Outcome = sync(g.start(scope()));
  assert.deepEqual(summary(outcome), { kind: 'error', step: 'feed', stepKind: 'stream', category: 'invalid-result' });
});
