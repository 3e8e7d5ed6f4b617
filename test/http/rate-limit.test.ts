/**
 * Rate limits served (src/http/rate-limit.ts) with the in-process store: the 429 problem and its
 * headers, the window, per-endpoint budgets and exemptions, keys, and the order against the guard.
 * The same limits counted in a Redis server shared by two replicas: test/redis/rate-limit.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { serveManifest } from './helpers.js';

async function get(app: FastifyInstance, url: string, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, headers: res.headers, body: res.body ? (JSON.parse(res.body) as Record<string, unknown>) : undefined };
}

const routes = `
route "GET /a" {
  respond { body = { ok = true } }
}
route "GET /b" {
  respond { body = { ok = true } }
}
route "GET /own" {
  rate_limit {
    max = 1
  }
  respond { body = { ok = true } }
}
route "GET /health" {
  rate_limit = false
  respond { body = { ok = true } }
}
`;

test('past the limit: a 429 problem with Retry-After, RateLimit and RateLimit-Policy; nothing of the store or key shown', async () => {
  const s = await serveManifest(`server {\n  rate_limit {\n    max    = 2\n    window = "1m"\n  }\n}\n${routes}`);
  try {
    const first = await get(s.app, '/a');
    assert.equal(first.status, 200);
    assert.equal(first.headers['ratelimit-policy'], '"server";q=2;w=60');
    assert.match(String(first.headers.ratelimit), /^"server";r=1;t=(60|59)$/);
    assert.equal((await get(s.app, '/a')).headers.ratelimit?.toString().split(';')[1], 'r=0');
    const refused = await get(s.app, '/a');
    assert.equal(refused.status, 429);
    assert.match(String(refused.headers['content-type']), /^application\/problem\+json/);
    assert.match(String(refused.headers['retry-after']), /^(60|59)$/);
    assert.match(String(refused.headers.ratelimit), /^"server";r=0;t=(60|59)$/);
    assert.ok(refused.headers['x-request-id']);
    assert.deepEqual(Object.keys(refused.body!).sort(), ['detail', 'instance', 'status', 'title', 'type']);
    assert.equal(refused.body!.type, 'urn:svc:error:too-many-requests');
    assert.equal(refused.body!.title, 'Too Many Requests');
    assert.equal(refused.body!.status, 429);
    assert.match(String(refused.body!.detail), /^at most 2 requests per minute; retry in (60|59) s$/);
    assert.equal(refused.body!.instance, '/a');
    // No x-ratelimit-* headers: the draft's fields only.
    assert.deepEqual(
      Object.keys(refused.headers).filter((h) => h.startsWith('x-ratelimit')),
      [],
    );
    // One log line, like every answer.
    const lines = s.log.requests().filter((l) => l.status === 429);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.url, '/a');
  } finally {
    await s.close();
  }
});

test('the server limit is one budget across the endpoints on it; an own block has its own; rate_limit = false is never counted', async () => {
  const s = await serveManifest(`server {\n  rate_limit {\n    max    = 2\n    window = "1m"\n  }\n}\n${routes}`);
  try {
    assert.equal((await get(s.app, '/a')).status, 200);
    assert.equal((await get(s.app, '/b')).status, 200);
    assert.equal((await get(s.app, '/b')).status, 429);
    assert.equal((await get(s.app, '/a')).status, 429);
    // Its own budget of 1, the server's window; its policy is named after the endpoint.
    const own = await get(s.app, '/own');
    assert.equal(own.status, 200);
    assert.equal(own.headers['ratelimit-policy'], '"GET /own";q=1;w=60');
    assert.equal((await get(s.app, '/own')).status, 429);
    for (let i = 0; i < 5; i++) {
      const health = await get(s.app, '/health');
      assert.equal(health.status, 200);
      assert.equal(health.headers.ratelimit, undefined);
      assert.equal(health.headers['ratelimit-policy'], undefined);
    }
  } finally {
    await s.close();
  }
});

test('the window: once Retry-After has passed the client is served again', async () => {
  const s = await serveManifest(`route "GET /a" {\n  rate_limit {\n    max    = 1\n    window = "1s"\n  }\n  respond { body = { ok = true } }\n}\n`);
  try {
    assert.equal((await get(s.app, '/a')).status, 200);
    const refused = await get(s.app, '/a');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '1');
    // Liveness only: served again within 10 s of the refusal.
    const deadline = Date.now() + 10_000;
    let status = 429;
    while (status === 429 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await get(s.app, '/a')).status;
    }
    assert.equal(status, 200);
  } finally {
    await s.close();
  }
});

test('by default clients are told apart by address; a key expression counts by what it reads, falling back to the address', async () => {
  const s = await serveManifest(`
route "GET /by-address" {
  rate_limit {
    max    = 1
    window = "1m"
  }
  respond { body = { ok = true } }
}
route "GET /by-key" {
  rate_limit {
    max    = 1
    window = "1m"
    key    = ctx.request.headers.x-api-key
  }
  respond { body = { ok = true } }
}
`);
  try {
    const from = (remoteAddress: string, url: string, headers: Record<string, string> = {}) =>
      s.app.inject({ method: 'GET', url, remoteAddress, headers }).then((r) => r.statusCode);
    assert.equal(await from('10.0.0.1', '/by-address'), 200);
    assert.equal(await from('10.0.0.1', '/by-address'), 429);
    assert.equal(await from('10.0.0.2', '/by-address'), 200);
    // IPv6 clients by their /64: another address of the same network shares its budget.
    assert.equal(await from('2001:db8:1:2::1', '/by-address'), 200);
    assert.equal(await from('2001:db8:1:2::ffff', '/by-address'), 429);
    assert.equal(await from('2001:db8:1:3::1', '/by-address'), 200);

    // One key from two addresses: one budget; two keys from one address: two.
    assert.equal(await from('10.0.0.1', '/by-key', { 'x-api-key': 'alpha' }), 200);
    assert.equal(await from('10.0.0.2', '/by-key', { 'x-api-key': 'alpha' }), 429);
    assert.equal(await from('10.0.0.2', '/by-key', { 'x-api-key': 'beta' }), 200);
    // Without the header, the address counts (10.0.0.3 is fresh, 10.0.0.3 again is not).
    assert.equal(await from('10.0.0.3', '/by-key'), 200);
    assert.equal(await from('10.0.0.3', '/by-key'), 429);
    // A key value is not mistaken for an address.
    assert.equal(await from('10.0.0.4', '/by-key', { 'x-api-key': '10.0.0.3' }), 200);
    // Long keys are kept as digests: still one budget per value, two values apart.
    const long = 'x'.repeat(4000);
    assert.equal(await from('10.0.0.5', '/by-key', { 'x-api-key': `${long}1` }), 200);
    assert.equal(await from('10.0.0.6', '/by-key', { 'x-api-key': `${long}1` }), 429);
    assert.equal(await from('10.0.0.6', '/by-key', { 'x-api-key': `${long}2` }), 200);
  } finally {
    await s.close();
  }
});

test('order: wrong credentials are counted before the guard; a key reading ctx.auth is counted after it, per principal', async () => {
  const s = await serveManifest(`
auth "keys" {
  type = "api_key"
  keys = { acme = "k-acme", globex = "k-globex" }
}
route "GET /before" {
  auth = [auth.keys]
  rate_limit {
    max    = 2
    window = "1m"
  }
  respond { body = { who = ctx.auth.principal } }
}
route "GET /after" {
  auth = [auth.keys]
  rate_limit {
    max    = 1
    window = "1m"
    key    = ctx.auth.principal
  }
  respond { body = { who = ctx.auth.principal } }
}
`);
  try {
    // Guessing keys: the limit answers before the guard is asked.
    assert.equal((await get(s.app, '/before', { 'x-api-key': 'guess-1' })).status, 401);
    assert.equal((await get(s.app, '/before', { 'x-api-key': 'guess-2' })).status, 401);
    assert.equal((await get(s.app, '/before', { 'x-api-key': 'k-acme' })).status, 429);

    // Refused requests are not counted; each principal has its own budget.
    for (let i = 0; i < 3; i++) assert.equal((await get(s.app, '/after', { 'x-api-key': 'wrong' })).status, 401);
    const acme = await get(s.app, '/after', { 'x-api-key': 'k-acme' });
    assert.deepEqual([acme.status, acme.body], [200, { who: 'acme' }]);
    assert.equal((await get(s.app, '/after', { 'x-api-key': 'k-acme' })).status, 429);
    assert.equal((await get(s.app, '/after', { 'x-api-key': 'k-globex' })).status, 200);
  } finally {
    await s.close();
  }
});

test('a memory: connection counts in the process (its embedded store runs no Lua): the limit holds', async () => {
  const s = await serveManifest(`
connection "redis" "limits" {
  url = "memory:"
}
server {
  rate_limit {
    max        = 1
    window     = "1m"
    connection = connection.redis.limits
  }
}
route "GET /a" {
  respond { body = { ok = true } }
}
`);
  try {
    assert.equal((await get(s.app, '/a')).status, 200);
    assert.equal((await get(s.app, '/a')).status, 429);
  } finally {
    await s.close();
  }
});

test('a key that reads path and query parameters, unvalidated; a refused POST is answered with its body unread', async () => {
  const s = await serveManifest(`
route "POST /t/{tenant}" {
  request {
    body {
      name = { type = string }
    }
  }
  rate_limit {
    max    = 1
    window = "1m"
    key    = "\${ctx.request.path.tenant}/\${ctx.request.query.region}"
  }
  respond { body = { name = ctx.request.body.name } }
}
`);
  try {
    const post = (url: string, payload: string) =>
      s.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } }).then((r) => r.statusCode);
    assert.equal(await post('/t/a?region=eu', '{"name":"x"}'), 200);
    // Refused before the body is read: a malformed body is never looked at.
    assert.equal(await post('/t/a?region=eu', '{not json'), 429);
    assert.equal(await post('/t/a?region=us', '{"name":"x"}'), 200);
    assert.equal(await post('/t/b?region=eu', '{"name":"x"}'), 200);
  } finally {
    await s.close();
  }
});
