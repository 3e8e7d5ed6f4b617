/**
 * Time-outs and disconnects tear a real graph down: the running step sees its AbortSignal fire.
 * (The step kinds that do I/O come in later releases; this builds such a step directly on the engine.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileGraphOrThrow } from '../../graph/index.js';
import type { ResponseResult } from '../../src/steps/index.js';
import { runGraph } from '../../src/steps/index.js';
import type { EndpointNode, EndpointScope } from '../../src/steps/index.js';
import { endpoint, server } from './helpers.js';

/** A graph of one step that takes `ms`, calling `started` once it runs and `aborted` if its signal fires first. */
function slowGraph(ms: number, aborted: (reason: unknown) => void, started: () => void = () => {}) {
  const nodes: EndpointNode[] = [
    {
      type: 'step',
      kind: 'io',
      name: 'slow',
      run: (_scope, { signal }) =>
        new Promise((resolve, reject) => {
          started();
          let done = false;
          const timer = setTimeout(() => {
            done = true;
            resolve({ done: true });
          }, ms);
          // The engine also aborts the signal when a run ends normally (it releases what is left).
          signal.addEventListener('abort', () => {
            if (done) return;
            clearTimeout(timer);
            aborted(signal.reason);
            reject(signal.reason);
          });
        }),
    },
    {
      type: 'exit',
      run: (scope): ResponseResult => ({ kind: 'response', status: 200, body: scope.steps.slow, problem: false }),
    },
  ];
  return compileGraphOrThrow<EndpointScope>({ nodes });
}

test('an asynchronous graph is awaited and answers', async () => {
  const graph = slowGraph(10, () => assert.fail('not aborted'));
  const { app } = await server([endpoint('GET /io', (ctx) => runGraph(graph, ctx))]);
  const r = await app.inject({ method: 'GET', url: '/io' });
  assert.equal(r.statusCode, 200);
  assert.deepEqual(r.json(), { done: true });
});

test('request_timeout: 504 problem and the running step is aborted', async () => {
  let abortedWith: unknown;
  const seen = new Promise<void>((resolve) => {
    const graph = slowGraph(10_000, (reason) => {
      abortedWith = reason;
      resolve();
    });
    void server([endpoint('GET /io', (ctx) => runGraph(graph, ctx))], { requestTimeoutMs: 50 }).then(async ({ app }) => {
      const r = await app.inject({ method: 'GET', url: '/io' });
      assert.equal(r.statusCode, 504);
      assert.equal(r.json().type, 'urn:svc:error:timeout');
    });
  });
  await seen;
  assert.ok(abortedWith !== undefined);
});

test('a client disconnect aborts the running step', async () => {
  let onAbort!: () => void;
  const aborted = new Promise<void>((resolve) => (onAbort = resolve));
  let onStart!: () => void;
  const running = new Promise<void>((resolve) => (onStart = resolve));
  const graph = slowGraph(
    10_000,
    () => onAbort(),
    () => onStart(),
  );
  const { app } = await server([endpoint('GET /io', (ctx) => runGraph(graph, ctx))]);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const controller = new AbortController();
  const request = fetch(`http://127.0.0.1:${port}/io`, { signal: controller.signal }).catch(() => 'aborted');
  // The client leaves once the step is running: left earlier, the request may never reach the
  // handler, and there is no step to abort.
  await running;
  controller.abort();
  assert.equal(await request, 'aborted');
  await aborted;
  await app.close();
});
