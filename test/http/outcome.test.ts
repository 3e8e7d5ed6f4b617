import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markProblem, problem } from '../../src/problem/index.js';
import type { EndpointResult, PendingResult } from '../../src/steps/index.js';
import { endpoint, json, pendingOf, server } from './helpers.js';

test('status, headers and a JSON body are written as decided', async () => {
  const { app } = await server([endpoint('GET /a', () => json({ ok: true }, 201, { 'X-Cache': 'HIT' }))]);
  const r = await app.inject({ method: 'GET', url: '/a' });
  assert.equal(r.statusCode, 201);
  assert.equal(r.headers['x-cache'], 'HIT');
  assert.deepEqual(r.json(), { ok: true });
});

test('integers beyond 2^53 (Starlark ints arrive as BigInt) are sent as exact JSON numbers', async () => {
  const { app } = await server([endpoint('GET /big', () => json({ n: 2n ** 70n, small: 1 }))]);
  const r = await app.inject({ method: 'GET', url: '/big' });
  assert.equal(r.statusCode, 200);
  assert.equal(r.body, '{"n":1180591620717411303424,"small":1}');
});

test('a null body sends no body', async () => {
  const { app } = await server([endpoint('DELETE /a', () => json(null, 204))]);
  const r = await app.inject({ method: 'DELETE', url: '/a' });
  assert.equal(r.statusCode, 204);
  assert.equal(r.body, '');
  assert.equal(r.headers['content-type'], undefined);
});

test('a problem() body is application/problem+json with instance filled in', async () => {
  const body = markProblem(problem(404, 'User not found'));
  const { app } = await server([endpoint('GET /users/{id}', () => ({ kind: 'response', status: 404, body, problem: true }))]);
  const r = await app.inject({ method: 'GET', url: '/users/9?x=y' });
  assert.equal(r.statusCode, 404);
  assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
  assert.deepEqual(r.json(), { type: 'urn:svc:error:not-found', title: 'User not found', status: 404, instance: '/users/9' });
});

test('a string body with a declared content type is sent as is', async () => {
  const { app } = await server([endpoint('GET /t', () => json('<b>hi</b>', 200, { 'Content-Type': 'text/html' }))]);
  const r = await app.inject({ method: 'GET', url: '/t' });
  assert.equal(r.body, '<b>hi</b>');
  assert.match(r.headers['content-type'] as string, /^text\/html/);
});

test('a failing step is a 500 naming the step, with no internals; the log has the full error', async () => {
  const secret = new Error('password authentication failed for user "admin" at 10.0.0.3');
  const { app, log } = await server([endpoint('GET /f', () => ({ kind: 'failure', category: 'internal', step: 'lookup', error: secret }))]);
  const r = await app.inject({ method: 'GET', url: '/f', headers: { 'x-request-id': 'req-500' } });
  assert.equal(r.statusCode, 500);
  assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
  assert.deepEqual(r.json(), { type: 'urn:svc:error:internal', title: 'Internal Server Error', status: 500, step: 'lookup', instance: '/f' });
  assert.doesNotMatch(r.body, /password|10\.0\.0\.3|stack/);
  const [line] = log.requests();
  assert.equal(line!.reqId, 'req-500');
  assert.equal(line!.step, 'lookup');
  assert.equal(line!.status, 500);
  assert.match(JSON.stringify(line!.err), /password authentication failed/);
});

test('a throwing endpoint is still a 500 problem, never a crash or Fastify error shape', async () => {
  const { app } = await server([
    endpoint('GET /boom', () => {
      throw new TypeError('internal detail');
    }),
  ]);
  const r = await app.inject({ method: 'GET', url: '/boom' });
  assert.equal(r.statusCode, 500);
  assert.equal(r.json().type, 'urn:svc:error:internal');
  assert.doesNotMatch(r.body, /internal detail/);
});

test('an asynchronous run is awaited', async () => {
  const { app } = await server([
    endpoint('GET /slow', (): PendingResult => pendingOf(new Promise<EndpointResult>((resolve) => setTimeout(() => resolve(json({ late: true })), 10)))),
  ]);
  const r = await app.inject({ method: 'GET', url: '/slow' });
  assert.deepEqual(r.json(), { late: true });
});

test('request_timeout answers 504 and cancels the run', async () => {
  let cancelled = 0;
  const { app, log } = await server([endpoint('GET /hang', (): PendingResult => pendingOf(new Promise(() => {}), () => void cancelled++))], {
    requestTimeoutMs: 50,
  });
  const r = await app.inject({ method: 'GET', url: '/hang' });
  assert.equal(r.statusCode, 504);
  assert.equal(r.json().type, 'urn:svc:error:timeout');
  assert.equal(r.json().title, 'Gateway Timeout');
  assert.equal(cancelled, 1);
  assert.equal(log.requests()[0]!.cancelled, 'timeout');
});

test('a client that disconnects cancels the run', async () => {
  let cancelled!: () => void;
  const gone = new Promise<void>((resolve) => (cancelled = resolve));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const { app, log } = await server([
    endpoint('GET /hang', (): PendingResult => {
      started();
      return pendingOf(new Promise(() => {}), () => cancelled());
    }),
  ]);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const controller = new AbortController();
  const request = fetch(`http://127.0.0.1:${port}/hang`, { signal: controller.signal }).catch(() => 'aborted');
  // The client leaves once the run is under way: left earlier, the request may never reach the
  // handler, and there is no run to cancel.
  await running;
  controller.abort();
  assert.equal(await request, 'aborted');
  await gone;
  await app.close();
  const [line] = log.requests();
  assert.equal(line!.status, 499);
  assert.equal(line!.cancelled, 'client closed');
});

test('one log line per request, with id, method, url, status and duration', async () => {
  const { app, log } = await server([endpoint('GET /a', () => json({}))]);
  await app.inject({ method: 'GET', url: '/a?q=1', headers: { 'x-request-id': 'one' } });
  await app.inject({ method: 'GET', url: '/missing', headers: { 'x-request-id': 'two' } });
  const lines = log.lines;
  assert.equal(lines.length, 2);
  assert.deepEqual(
    lines.map((l) => [l.reqId, l.method, l.url, l.status]),
    [
      ['one', 'GET', '/a?q=1', 200],
      ['two', 'GET', '/missing', 404],
    ],
  );
  assert.equal(typeof lines[0]!.ms, 'number');
  assert.equal(typeof lines[0]!.time, 'number');
});

test('the logged duration runs from arrival to the response', async () => {
  const slow = (): PendingResult => pendingOf(new Promise((resolve) => setTimeout(() => resolve(json({})), 40)));
  const { app, log } = await server([endpoint('GET /slow', slow)]);
  await app.inject({ method: 'GET', url: '/slow' });
  const ms = log.requests()[0]!.ms as number;
  assert.ok(ms >= 35 && ms < 5000, `ms = ${ms}`);
});

test('a body JSON cannot encode is a 500 problem, on the synchronous and the asynchronous path', async () => {
  const big: Record<string, unknown> = { n: 1 };
  big.self = big;
  const { app } = await server([endpoint('GET /sync', () => json(big)), endpoint('GET /async', (): PendingResult => pendingOf(Promise.resolve(json(big))))]);
  for (const url of ['/sync', '/async']) {
    const r = await app.inject({ method: 'GET', url });
    assert.equal(r.statusCode, 500, url);
    assert.equal(r.json().type, 'urn:svc:error:internal');
  }
});
