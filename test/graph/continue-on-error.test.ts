/**
 * StepNodeDef.continueOnError: a step's own failure (a throw, a rejection, its time-out) becomes its
 * output and the run goes on; a success is marked by `succeeded`; the failed step's releases have
 * run before the next step; a cancellation of the run is not the step's failure and is not recovered.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContinueOnError, StepError } from '../../graph/index.js';
import { graph, scope, sync } from './helpers.js';

const CONTINUE: ContinueOnError = {
  failed: (error: StepError) => ({ ok: false, category: error.category, step: error.step }),
  succeeded: (output) => ({ ok: true, output }),
};

test('a synchronous throw becomes the output, and the next step reads it', () => {
  const g = graph([
    {
      type: 'step',
      name: 'hook',
      kind: 'http',
      continueOnError: CONTINUE,
      run: () => {
        throw new Error('refused');
      },
    },
    { type: 'exit', reads: ['hook'], run: (s) => s.steps.hook },
  ]);
  const outcome = sync(g.start(scope()));
  assert.deepEqual(outcome, { kind: 'exit', step: 'respond#1', payload: { ok: false, category: 'internal', step: 'hook' } });
});

test('a success is marked by succeeded, synchronously or not', async () => {
  const now = sync(
    graph([
      { type: 'step', name: 'a', kind: 'sql', continueOnError: CONTINUE, run: () => 42 },
      { type: 'exit', run: (s) => s.steps.a },
    ]).start(scope()),
  );
  assert.deepEqual(now.kind === 'exit' && now.payload, { ok: true, output: 42 });
  const later = await graph([
    { type: 'step', name: 'a', kind: 'sql', continueOnError: CONTINUE, run: () => Promise.resolve(43) },
    { type: 'exit', run: (s) => s.steps.a },
  ]).runPromise(scope());
  assert.deepEqual(later.kind === 'exit' && later.payload, { ok: true, output: 43 });
});

test('a rejection and a time-out become the output; the failed step was released first', async () => {
  const released: string[] = [];
  const g = graph([
    {
      type: 'step',
      name: 'slow',
      kind: 'http',
      timeout: 20,
      continueOnError: CONTINUE,
      run: (_s, ctx) => {
        ctx.onRelease((reason) => released.push(`slow: ${(reason as Error | undefined)?.name}`));
        return new Promise(() => {});
      },
    },
    { type: 'step', name: 'bad', kind: 'sql', continueOnError: CONTINUE, run: () => Promise.reject(new Error('no')) },
    {
      type: 'exit',
      run: (s) => {
        released.push('exit');
        return [s.steps.slow, s.steps.bad];
      },
    },
  ]);
  const outcome = await g.runPromise(scope());
  assert.deepEqual(outcome.kind === 'exit' && outcome.payload, [
    { ok: false, category: 'timeout', step: 'slow' },
    { ok: false, category: 'internal', step: 'bad' },
  ]);
  assert.deepEqual(released, ['slow: StepTimeoutError', 'exit']);
});

test('a run cancelled while the step runs ends as cancelled: the cancellation is not recovered', async () => {
  const aborted = new AbortController();
  const g = graph([
    { type: 'step', name: 'wait', kind: 'http', continueOnError: CONTINUE, run: () => new Promise(() => {}) },
    { type: 'exit', run: () => 'unreached' },
  ]);
  const pending = g.runPromise(scope(), aborted.signal);
  aborted.abort(new Error('client gone'));
  const outcome = await pending;
  assert.equal(outcome.kind, 'error');
  assert.equal(outcome.kind === 'error' && outcome.error.category, 'cancelled');
});

test('without continueOnError a failure still fails the run', async () => {
  const outcome = await graph([
    { type: 'step', name: 'a', kind: 'sql', run: () => Promise.reject(new Error('no')) },
    { type: 'exit', run: () => 'unreached' },
  ]).runPromise(scope());
  assert.equal(outcome.kind, 'error');
});
