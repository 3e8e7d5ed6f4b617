import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endpoint, json, server } from './helpers.js';

const echoParams = (label: string) => endpoint(label, (ctx) => json({ path: ctx.request.path, method: ctx.request.method }));

test('routes manifest paths, with {name} parameters', async () => {
  const { app } = await server([echoParams('GET /users/{id}'), echoParams('GET /users/{id}/posts/{post}')]);
  const r1 = await app.inject({ method: 'GET', url: '/users/42' });
  assert.equal(r1.statusCode, 200);
  assert.deepEqual(r1.json(), { path: { id: '42' }, method: 'GET' });
  const r2 = await app.inject({ method: 'GET', url: '/users/7/posts/a%20b' });
  assert.deepEqual(r2.json().path, { id: '7', post: 'a b' });
  assert.match(r2.headers['content-type'] as string, /^application\/json/);
});

test('a trailing catch-all {name...} takes the rest of the path under its own name', async () => {
  const { app } = await server([echoParams('GET /files/{path...}')]);
  const r = await app.inject({ method: 'GET', url: '/files/a/b/c.txt' });
  assert.equal(r.statusCode, 200);
  assert.deepEqual(r.json().path, { path: 'a/b/c.txt' });
});

test('HEAD is answered for GET endpoints, without a body', async () => {
  const { app } = await server([echoParams('GET /h')]);
  const r = await app.inject({ method: 'HEAD', url: '/h' });
  assert.equal(r.statusCode, 200);
  assert.equal(r.body, '');
});

test('an unknown path is a 404 problem with instance = request path', async () => {
  const { app } = await server([echoParams('GET /a')]);
  const r = await app.inject({ method: 'GET', url: '/nope?x=1' });
  assert.equal(r.statusCode, 404);
  assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
  const body = r.json();
  assert.equal(body.type, 'urn:svc:error:not-found');
  assert.equal(body.title, 'Not Found');
  assert.equal(body.status, 404);
  assert.equal(body.instance, '/nope');
});

test('a known path with another method is a 405 problem with Allow', async () => {
  const { app } = await server([echoParams('GET /things'), echoParams('POST /things'), echoParams('DELETE /things/{id}')]);
  const r = await app.inject({ method: 'PUT', url: '/things' });
  assert.equal(r.statusCode, 405);
  assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
  assert.equal(r.headers.allow, 'GET, HEAD, POST');
  const body = r.json();
  assert.equal(body.type, 'urn:svc:error:method-not-allowed');
  assert.equal(body.title, 'Method Not Allowed');
  assert.equal(body.instance, '/things');
  const r2 = await app.inject({ method: 'GET', url: '/things/3' });
  assert.equal(r2.statusCode, 405);
  assert.equal(r2.headers.allow, 'DELETE');
});

test('X-Request-Id is echoed when sane and generated otherwise', async () => {
  const { app, log } = await server([echoParams('GET /a')]);
  const given = await app.inject({ method: 'GET', url: '/a', headers: { 'x-request-id': 'abc-123' } });
  assert.equal(given.headers['x-request-id'], 'abc-123');
  const generated = await app.inject({ method: 'GET', url: '/a' });
  assert.match(generated.headers['x-request-id'] as string, /^[0-9a-f]{12}-[0-9a-z]+$/);
  const next = await app.inject({ method: 'GET', url: '/a' });
  assert.notEqual(next.headers['x-request-id'], generated.headers['x-request-id']);
  const insane = await app.inject({ method: 'GET', url: '/a', headers: { 'x-request-id': 'a b"c' } });
  assert.notEqual(insane.headers['x-request-id'], 'a b"c');
  const tooLong = await app.inject({ method: 'GET', url: '/a', headers: { 'x-request-id': 'x'.repeat(129) } });
  assert.notEqual(tooLong.headers['x-request-id'], 'x'.repeat(129));
  const notFound = await app.inject({ method: 'GET', url: '/zzz', headers: { 'x-request-id': 'nf-1' } });
  assert.equal(notFound.headers['x-request-id'], 'nf-1');
  assert.deepEqual(
    log
      .requests()
      .map((l) => l.reqId)
      .slice(0, 1),
    ['abc-123'],
  );
});

test('ctx carries request id, epoch seconds, method, lower-case headers and query', async () => {
  const { app } = await server([
    endpoint('GET /ctx', (ctx) => json({ id: ctx.request_id, t: ctx.timestamp_epoch, q: ctx.request.query, h: ctx.request.headers['x-thing'] })),
  ]);
  const before = Math.floor(Date.now() / 1000);
  const r = await app.inject({ method: 'GET', url: '/ctx?a=1&b=x', headers: { 'X-Thing': 'v', 'x-request-id': 'rid' } });
  const body = r.json();
  assert.equal(body.id, 'rid');
  assert.ok(body.t >= before && body.t <= before + 1);
  assert.deepEqual(body.q, { a: '1', b: 'x' });
  assert.equal(body.h, 'v');
});

test('a path that is not valid URL encoding is a 400 problem, and the server carries on', async () => {
  const { app, log } = await server([echoParams('GET /users/{id}')]);
  const r = await app.inject({ method: 'GET', url: '/users/%E0%A4%A' });
  assert.equal(r.statusCode, 400);
  assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
  assert.equal(r.json().type, 'urn:svc:error:bad-request');
  assert.equal((await app.inject({ method: 'GET', url: '/users/1' })).statusCode, 200);
  assert.deepEqual(
    log.requests().map((l) => l.status),
    [400, 200],
  );
});

test('methods the router does not know are a 404 problem', async () => {
  const { app } = await server([echoParams('GET /a')]);
  const r = await app.inject({ method: 'PROPFIND' as 'GET', url: '/a' });
  assert.equal(r.statusCode, 404);
  assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
});

test('an endpoint declared for HEAD replaces the one derived from GET, in either order', async () => {
  for (const labels of [
    ['GET /x', 'HEAD /x'],
    ['HEAD /x', 'GET /x'],
  ]) {
    const { app } = await server(labels.map((l) => endpoint(l, () => json({ from: l }, l.startsWith('HEAD') ? 204 : 200))));
    const head = await app.inject({ method: 'HEAD', url: '/x' });
    assert.equal(head.statusCode, 204, labels.join(', '));
    const get = await app.inject({ method: 'GET', url: '/x' });
    assert.equal(get.statusCode, 200);
    assert.equal((await app.inject({ method: 'POST', url: '/x' })).headers.allow, 'GET, HEAD');
  }
});

test('methods of one path may name its parameters differently; 405 covers them all', async () => {
  const { app } = await server([echoParams('GET /a/{x}'), echoParams('POST /a/{y}')]);
  assert.deepEqual((await app.inject({ method: 'GET', url: '/a/1' })).json().path, { x: '1' });
  assert.deepEqual((await app.inject({ method: 'POST', url: '/a/2' })).json().path, { y: '2' });
  const r = await app.inject({ method: 'DELETE', url: '/a/3' });
  assert.equal(r.statusCode, 405);
  assert.equal(r.headers.allow, 'GET, HEAD, POST');
});
