/**
 * `after_response { ... }` (issue 36): steps run once the pipeline's answer (below 400) has been
 * written, with its ctx and step outputs; not after a 4xx answer. An http step's `retry` sends again
 * after a 503 and after a reset, with back-off; its last failure is reported, and the answer was
 * never held back by any of it. The runner's bounds: at most N at once, a bounded queue past which
 * work is dropped and reported, and a drain at shutdown that cancels what outlives its deadline.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compileGraphOrThrow, type StepError } from '../../graph/index.js';
import { AfterResponseRunner } from '../../src/steps/after-response.js';
import type { EndpointScope, RequestContext } from '../../src/steps/index.js';
import { eventually } from '../connectors/helpers.js';
import { serveManifest } from '../http/helpers.js';

interface Hook {
  readonly url: string;
  readonly body: string;
  readonly at: number;
}

let receiver: Server;
let base = '';
const hooks: Hook[] = [];
/** Answers to give /flaky, in order; then 204. */
let flaky: number[] = [];

before(async () => {
  receiver = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      hooks.push({ url: req.url ?? '', body, at: Date.now() });
      if (req.url === '/reset') return void req.socket.destroy();
      if (req.url === '/flaky') return void res.writeHead(flaky.shift() ?? 204).end();
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
after(() => {
  receiver.closeAllConnections();
  receiver.close();
});

function manifest(hookPath: string): string {
  return `
    endpoint "POST /orders/{id}" {
      request {
        path {
          field "id" {
            type = integer
          }
        }
      }
      pipeline {
        respond {
          condition = ctx.request.path.id == 0
          body      = problem(404, "No such order")
        }
        respond {
          status = 202
          body   = { id = ctx.request.path.id }
        }
      }
      after_response {
        http "hook" {
          url    = "${base}${hookPath}"
          method = "POST"
          body   = { order = ctx.request.path.id, request = ctx.request_id }
          timeout = "1s"
          retry {
            attempts = 3
            backoff  = "20ms"
          }
        }
      }
    }
  `;
}

async function served(hookPath: string) {
  const failed: StepError[] = [];
  const s = await serveManifest(manifest(hookPath), { compile: { afterResponse: { failed: (error) => failed.push(error) } } });
  return { s, failed };
}

test('the hook runs after the answer, with ctx and the path value; a 404 answer runs no after work', async () => {
  const { s, failed } = await served('/ok');
  try {
    hooks.length = 0;
    const answered = await s.app.inject({ method: 'POST', url: '/orders/7' });
    const answeredAt = Date.now();
    assert.equal(answered.statusCode, 202);
    const [hook] = await eventually(
      () => hooks.filter((h) => h.url === '/ok'),
      (h) => h.length === 1,
    );
    assert.deepEqual(JSON.parse(hook!.body), { order: 7, request: answered.headers['x-request-id'] });
    assert.ok(hook!.at >= answeredAt - 5, 'not before the answer');

    assert.equal((await s.app.inject({ method: 'POST', url: '/orders/0' })).statusCode, 404);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(hooks.filter((h) => h.url === '/ok').length, 1, 'no hook after a 404');
    assert.deepEqual(failed, []);
  } finally {
    await s.close();
  }
});

test('retry: a 503 twice, then the receiver takes it on the third attempt; nothing is reported', async () => {
  const { s, failed } = await served('/flaky');
  try {
    hooks.length = 0;
    flaky = [503, 503];
    assert.equal((await s.app.inject({ method: 'POST', url: '/orders/8' })).statusCode, 202);
    await eventually(
      () => hooks.filter((h) => h.url === '/flaky').length,
      (n) => n === 3,
    );
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(failed, []);
  } finally {
    await s.close();
  }
});

test('retry: a receiver that resets every attempt is tried three times, then the failure is reported (bad-gateway)', async () => {
  const { s, failed } = await served('/reset');
  try {
    hooks.length = 0;
    assert.equal((await s.app.inject({ method: 'POST', url: '/orders/9' })).statusCode, 202, 'the answer does not wait for the hook');
    const [error] = await eventually(
      () => failed,
      (f) => f.length === 1,
    );
    assert.equal(hooks.filter((h) => h.url === '/reset').length, 3);
    assert.equal(error!.step, 'hook');
    assert.equal(error!.category, 'bad-gateway');
  } finally {
    await s.close();
  }
});

/** A graph whose one step waits until released (or its run is cancelled). */
function waitingGraph(started: string[], release: Promise<void>) {
  return compileGraphOrThrow<EndpointScope>({
    nodes: [
      {
        type: 'step',
        name: 'wait',
        kind: 'test',
        run: (scope, ctx) => {
          started.push(scope.ctx.request_id);
          return new Promise<void>((resolve, reject) => {
            void release.then(() => resolve());
            ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
          }).then(() => ({ done: true }));
        },
      },
    ],
  });
}

const scopeOf = (id: string): EndpointScope => ({ steps: {}, ctx: { request_id: id } as unknown as RequestContext });

test('the runner: at most maxRunning at once, a bounded queue past which work is dropped and reported', async () => {
  const started: string[] = [];
  const dropped: string[] = [];
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const runner = new AfterResponseRunner({ dropped: (ctx) => dropped.push(ctx.request_id) }, { maxRunning: 2, maxWaiting: 2 });
  const graph = waitingGraph(started, gate);
  for (const id of ['a', 'b', 'c', 'd', 'e']) runner.schedule(graph, scopeOf(id));
  assert.deepEqual(dropped, ['e'], 'two to run, two to wait: the fifth is dropped');
  await eventually(
    () => started.length,
    (n) => n === 2,
  );
  assert.deepEqual(started, ['a', 'b']);
  release();
  await eventually(
    () => runner.pending,
    (n) => n === 0,
  );
  assert.deepEqual(started, ['a', 'b', 'c', 'd']);
});

test('the runner at shutdown: running work gets until the deadline, then is cancelled; waiting work is dropped', async () => {
  const started: string[] = [];
  const stopped: { cancelled: number; dropped: number }[] = [];
  const failed: StepError[] = [];
  const runner = new AfterResponseRunner({ stopped: (c) => stopped.push({ ...c }), failed: (e) => failed.push(e) }, { maxRunning: 1 });
  const graph = waitingGraph(started, new Promise<void>(() => {}));
  runner.schedule(graph, scopeOf('a'));
  runner.schedule(graph, scopeOf('b'));
  await eventually(
    () => started.length,
    (n) => n === 1,
  );
  await runner.drain(50);
  assert.equal(runner.pending, 0);
  assert.deepEqual(stopped, [{ cancelled: 1, dropped: 1 }]);
  assert.deepEqual(failed, [], 'a cancellation is no failure');
  runner.schedule(graph, scopeOf('c'));
  assert.equal(runner.pending, 0, 'nothing new once stopping');
});
