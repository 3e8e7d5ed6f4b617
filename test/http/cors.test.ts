/**
 * CORS served (src/http/cors*.ts, docs/cors.md), in-process over Fastify's inject: preflights
 * answered before guards and limits, the credentials rules of Fetch, `Vary`, and the headers on every
 * kind of answer: JSON written directly, problems (401, 404, 405, 413, 415, 422, 429, 500, 504),
 * streams (SSE, ndjson, CSV), the OpenAPI document and a documentation page. Browsers themselves:
 * test/e2e/cors-browser.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildServer, createLogger, docsSites } from '../../src/http/index.js';
import type { CorsModel } from '../../src/model/index.js';
import { buildServiceModel, compileService } from '../../src/steps/index.js';
import { endpoint, json, LogCapture, pendingOf } from './helpers.js';

interface Served {
  readonly app: FastifyInstance;
  readonly log: LogCapture;
}

/** A manifest served as `svc serve` builds it, documentation endpoints and the server's policy included. */
async function serve(source: string, options: { bodyLimit?: number; level?: string } = {}): Promise<Served> {
  const built = buildServiceModel([{ filename: 'api.hcl', source }]);
  assert.deepEqual(
    built.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.summary}: ${d.detail}`),
    [],
  );
  const model = built.model!;
  const service = compileService(model);
  assert.deepEqual(
    service.diagnostics.map((d) => `${d.summary}: ${d.detail}`),
    [],
  );
  const log = new LogCapture();
  const app = await buildServer({
    endpoints: service.endpoints,
    docs: docsSites(service.docs, model),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    requestTimeoutMs: 5000,
    ...(model.server.cors ? { cors: model.server.cors } : {}),
    logger: createLogger({ stream: log, level: options.level ?? 'info' }),
  });
  return { app, log };
}

async function withServed(source: string, body: (s: Served) => Promise<void>, options: { bodyLimit?: number; level?: string } = {}): Promise<void> {
  const s = await serve(source, options);
  try {
    await body(s);
  } finally {
    await s.app.close();
  }
}

const APP = 'https://app.example.com';

const SERVICE = `
server {
  cors {
    allowed_origins   = ["${APP}", "https://*.example.org"]
    allowed_headers   = ["Content-Type", "Authorization", "X-Api-Key"]
    exposed_headers   = ["X-Trace"]
    allow_credentials = true
    max_age           = 300
  }
}
openapi {
  title   = "CORS"
  version = "1.0.0"
}
auth "keys" {
  type = "api_key"
  keys = { alice = "k-alice" }
}
route "GET /items" {
  respond { body = { items = [1, 2] } }
}
route "POST /items" {
  auth = [auth.keys]
  rate_limit {
    max    = 100
    window = "1m"
  }
  request {
    body {
      field "name" {
        type     = string
        required = true
      }
    }
  }
  respond {
    status = 201
    body   = { name = ctx.request.body.name }
  }
}
route "GET /limited" {
  rate_limit {
    max    = 1
    window = "1m"
  }
  respond { body = { ok = true } }
}
route "GET /private" {
  cors = false
  respond { body = { ok = true } }
}
route "GET /partner" {
  cors {
    allowed_origins = ["https://partner.example.net"]
  }
  respond {
    headers = { Vary = "Accept-Language" }
    body    = { ok = true }
  }
}
route "GET /feed" {
  stream "sse" {
    source = [{ n = 1 }]
  }
}
route "GET /lines" {
  stream "ndjson" {
    source = [1, 2]
  }
}
route "GET /table" {
  stream "csv" {
    source  = [{ a = 1 }]
    columns = ["a"]
  }
}
endpoint "GET /openapi.json" {
  openapi { format = "json" }
}
endpoint "GET /docs" {
  openapi { ui = "scalar" }
}
`;

function preflight(app: FastifyInstance, url: string, origin: string, method: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': method, ...headers } });
}

/** The headers of an actual answer to an allowed origin under the server's credentialed policy. */
function assertAllowed(headers: Record<string, unknown>, origin: string, what: string, exposed = 'X-Request-Id, X-Trace'): void {
  assert.equal(headers['access-control-allow-origin'], origin, what);
  assert.equal(headers['access-control-allow-credentials'], 'true', what);
  assert.equal(headers['access-control-expose-headers'], exposed, what);
  assert.match(String(headers.vary), /\bOrigin\b/, what);
}

function assertNoCors(headers: Record<string, unknown>, what: string): void {
  assert.deepEqual(
    Object.keys(headers).filter((h) => h.startsWith('access-control-')),
    [],
    what,
  );
}

test('a preflight is answered 204 before the guard and the rate limit, with the route methods the policy allows', async () => {
  await withServed(SERVICE, async ({ app, log }) => {
    const res = await preflight(app, '/items', APP, 'POST', { 'access-control-request-headers': 'content-type,x-api-key' });
    assert.equal(res.statusCode, 204);
    assert.equal(res.body, '');
    assert.equal(res.headers['access-control-allow-origin'], APP);
    assert.equal(res.headers['access-control-allow-credentials'], 'true');
    assert.equal(res.headers['access-control-allow-methods'], 'GET, HEAD, POST');
    assert.equal(res.headers['access-control-allow-headers'], 'content-type, authorization, x-api-key');
    assert.equal(res.headers['access-control-max-age'], '300');
    assert.equal(res.headers.vary, 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
    assert.ok(res.headers['x-request-id']);
    // Neither the guard (no key) nor the limit saw it: a second preflight is answered too, and the
    // limit of max 1 is still to be spent.
    assert.equal((await preflight(app, '/limited', APP, 'GET')).statusCode, 204);
    assert.equal((await preflight(app, '/limited', APP, 'GET')).statusCode, 204);
    assert.equal((await app.inject({ url: '/limited', headers: { origin: APP } })).statusCode, 200);
    const post = await app.inject({ method: 'POST', url: '/items', headers: { origin: APP, 'x-api-key': 'k-alice' }, payload: { name: 'a' } });
    assert.equal(post.statusCode, 201);
    assertAllowed(post.headers, APP, 'POST', 'X-Request-Id, RateLimit, RateLimit-Policy, Retry-After, X-Trace');
    // One access line per preflight, like any answer.
    assert.equal(log.requests().filter((l) => l.method === 'OPTIONS' && l.status === 204).length, 3);
  });
});

test('origins: exact, patterns of one or more labels; look-alikes, other schemes, enormous and malformed origins get nothing', async () => {
  await withServed(SERVICE, async ({ app }) => {
    for (const origin of [APP, 'https://a.example.org', 'https://a.b-c.example.org']) {
      const res = await app.inject({ url: '/items', headers: { origin } });
      assert.equal(res.statusCode, 200);
      assertAllowed(res.headers, origin, origin);
    }
    const refused = [
      'https://example.org',
      'http://a.example.org',
      'https://evil-example.org',
      'https://a.example.org.evil.com',
      'https://a.example.org:8443',
      'https://app.example.com/',
      'HTTPS://APP.EXAMPLE.COM',
      'https://a_b.example.org',
      'null',
      `https://${'a'.repeat(100_000)}.example.org`,
      `https://app.example.com${'x'.repeat(100_000)}`,
    ];
    for (const origin of refused) {
      const res = await app.inject({ url: '/items', headers: { origin } });
      // Served as ever, but without CORS headers: the browser keeps the page from reading it.
      assert.equal(res.statusCode, 200, origin.slice(0, 60));
      assertNoCors(res.headers, origin.slice(0, 60));
      assert.equal(res.headers.vary, 'Origin');
    }
    const pre = await preflight(app, '/items', 'https://evil.example.com', 'GET');
    assert.equal(pre.statusCode, 403);
    assertNoCors(pre.headers, 'refused preflight');
    assert.match(String(pre.headers['content-type']), /^application\/problem\+json/);
    assert.equal(JSON.parse(pre.body).detail, 'cross-origin request refused: origin not in allowed_origins');
  });
});

test('a refused origin is logged at debug level with the reason, its origin cut short', async () => {
  await withServed(
    SERVICE,
    async ({ app, log }) => {
      await app.inject({ url: '/items', headers: { origin: `https://${'z'.repeat(5000)}.com` } });
      const lines = log.lines.filter((l) => l.cors !== undefined);
      assert.equal(lines.length, 1);
      assert.equal(lines[0]!.level, 20);
      assert.equal(lines[0]!.cors, 'origin not in allowed_origins');
      assert.equal(String(lines[0]!.origin).length, 200);
    },
    { level: 'debug' },
  );
  // At info, nothing but the access line.
  await withServed(SERVICE, async ({ app, log }) => {
    await app.inject({ url: '/items', headers: { origin: 'https://other.test' } });
    assert.deepEqual(
      log.lines.filter((l) => l.cors !== undefined),
      [],
    );
  });
});

test('every kind of answer carries the headers: direct JSON, problems before and after the handler, streams, documentation', async () => {
  await withServed(
    SERVICE,
    async ({ app }) => {
      const h = { origin: APP };
      const cases: [string, InjectOptions, number][] = [
        ['direct JSON', { url: '/items', headers: h }, 200],
        ['HEAD', { method: 'HEAD', url: '/items', headers: h }, 200],
        ['401 guard', { method: 'POST', url: '/items', headers: h, payload: { name: 'a' } }, 401],
        ['422 validation', { method: 'POST', url: '/items', headers: { ...h, 'x-api-key': 'k-alice' }, payload: {} }, 422],
        ['404', { url: '/nowhere', headers: h }, 404],
        ['405', { method: 'DELETE', url: '/items', headers: h }, 405],
        ['OPTIONS, not a preflight', { method: 'OPTIONS', url: '/items', headers: h }, 405],
        ['415', { method: 'POST', url: '/items', headers: { ...h, 'x-api-key': 'k-alice', 'content-type': 'text/plain' }, payload: 'x' }, 415],
        [
          '413',
          {
            method: 'POST',
            url: '/items',
            headers: { ...h, 'x-api-key': 'k-alice', 'content-type': 'application/json' },
            payload: `{"name":"${'x'.repeat(300)}"}`,
          },
          413,
        ],
        ['SSE', { url: '/feed', headers: h }, 200],
        ['ndjson', { url: '/lines', headers: h }, 200],
        ['CSV', { url: '/table', headers: h }, 200],
        ['OpenAPI document', { url: '/openapi.json', headers: h }, 200],
        ['documentation page', { url: '/docs', headers: h }, 200],
      ];
      for (const [what, request, status] of cases) {
        const res = await app.inject(request);
        assert.equal(res.statusCode, status, what);
        const limited = what === '401 guard' || what === '422 validation' || what === '415' || what === '413';
        assertAllowed(res.headers, APP, what, limited ? 'X-Request-Id, RateLimit, RateLimit-Policy, Retry-After, X-Trace' : undefined);
      }
      // 429: the second request of a window of one.
      assert.equal((await app.inject({ url: '/limited', headers: h })).statusCode, 200);
      const limited = await app.inject({ url: '/limited', headers: h });
      assert.equal(limited.statusCode, 429);
      assertAllowed(limited.headers, APP, '429', 'X-Request-Id, RateLimit, RateLimit-Policy, Retry-After, X-Trace');
      assert.ok(limited.headers['retry-after']);
      // A revalidated document (304) too.
      const doc = await app.inject({ url: '/openapi.json', headers: h });
      const again = await app.inject({ url: '/openapi.json', headers: { ...h, 'if-none-match': String(doc.headers.etag) } });
      assert.equal(again.statusCode, 304);
      assertAllowed(again.headers, APP, '304');
    },
    { bodyLimit: 256 },
  );
});

test('500 and 504 carry the headers too, as do answers of a pending run', async () => {
  const cors: CorsModel = {
    allowedOrigins: [APP],
    allowedMethods: '*',
    allowedHeaders: ['content-type'],
    exposedHeaders: [],
    allowCredentials: false,
    maxAgeSeconds: 600,
    range: { filename: 't', start: { line: 1, column: 1, byte: 0 }, end: { line: 1, column: 1, byte: 0 } },
  };
  const app = await buildServer({
    endpoints: [
      { ...endpoint('GET /fails', () => ({ kind: 'failure', category: 'internal', error: new Error('secret cause') }) as never), cors },
      { ...endpoint('GET /slow', () => pendingOf(new Promise(() => {}))), cors },
      { ...endpoint('GET /later', () => pendingOf(Promise.resolve(json({ ok: true })))), cors },
    ],
    bodyLimit: 1024,
    requestTimeoutMs: 200,
    logger: createLogger({ stream: new LogCapture() }),
  });
  try {
    for (const [url, status] of [
      ['/fails', 500],
      ['/slow', 504],
      ['/later', 200],
    ] as const) {
      const res = await app.inject({ url, headers: { origin: APP } });
      assert.equal(res.statusCode, status, url);
      assert.equal(res.headers['access-control-allow-origin'], APP, url);
      assert.equal(res.headers['access-control-allow-credentials'], undefined, url);
      assert.equal(res.headers['access-control-expose-headers'], 'X-Request-Id', url);
      assert.equal(res.headers.vary, 'Origin', url);
      assert.doesNotMatch(res.body, /secret cause/);
    }
  } finally {
    await app.close();
  }
});

test("an endpoint overrides the server: cors = false sends nothing; its own block replaces what it sets and joins a step's Vary", async () => {
  await withServed(SERVICE, async ({ app }) => {
    const off = await app.inject({ url: '/private', headers: { origin: APP } });
    assert.equal(off.statusCode, 200);
    assertNoCors(off.headers, 'cors = false');
    assert.equal(off.headers.vary, undefined);
    // A path without CORS answers OPTIONS as before.
    const pre = await preflight(app, '/private', APP, 'GET');
    assert.equal(pre.statusCode, 405);
    assertNoCors(pre.headers, 'preflight on cors = false');

    // Its origins replace the server's; the rest (credentials, exposed headers) is inherited.
    const partner = 'https://partner.example.net';
    const own = await app.inject({ url: '/partner', headers: { origin: partner } });
    assertAllowed(own.headers, partner, 'own block');
    assert.equal(own.headers.vary, 'Origin, Accept-Language');
    assertNoCors((await app.inject({ url: '/partner', headers: { origin: APP } })).headers, 'server origin on own block');
    assert.equal((await preflight(app, '/partner', partner, 'GET')).headers['access-control-max-age'], '300');
  });
});

test('a preflight for a method the path does not declare, or outside allowed_methods, is refused', async () => {
  const source = `
server {
  cors {
    allowed_origins = ["${APP}"]
    allowed_methods = ["GET", "POST"]
  }
}
route "GET /a" {
  respond { body = 1 }
}
route "PUT /a" {
  respond { body = 2 }
}
`;
  await withServed(source, async ({ app }) => {
    const get = await preflight(app, '/a', APP, 'GET');
    assert.equal(get.statusCode, 204);
    // The path's methods the policy allows: PUT is declared but not allowed.
    assert.equal(get.headers['access-control-allow-methods'], 'GET');
    assert.equal(get.headers['access-control-allow-credentials'], undefined);
    // The default allowed headers.
    assert.equal(get.headers['access-control-allow-headers'], 'accept, content-type, x-requested-with, x-request-id');
    const put = await preflight(app, '/a', APP, 'PUT');
    assert.equal(put.statusCode, 403);
    assert.equal(JSON.parse(put.body).detail, 'cross-origin request refused: PUT not in allowed_methods');
    const del = await preflight(app, '/a', APP, 'DELETE');
    assert.equal(del.statusCode, 403);
    assertNoCors(del.headers, 'undeclared method');
    // A preflight to a path that does not exist is a 404, with the server's headers.
    const nowhere = await preflight(app, '/nowhere', APP, 'GET');
    assert.equal(nowhere.statusCode, 404);
    assert.equal(nowhere.headers['access-control-allow-origin'], APP);
  });
});

test('"*": without credentials the answer is "*" and does not vary; with credentials the origin is echoed, and the requested headers', async () => {
  const open = `
server {
  cors {
    allowed_origins = ["*"]
    allowed_headers = ["*"]
  }
}
route "GET /a" {
  respond { body = 1 }
}
`;
  await withServed(open, async ({ app }) => {
    const res = await app.inject({ url: '/a', headers: { origin: 'https://anyone.test' } });
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers.vary, undefined);
    assert.equal((await app.inject({ url: '/a' })).headers['access-control-allow-origin'], '*');
    const pre = await preflight(app, '/a', 'https://anyone.test', 'GET', { 'access-control-request-headers': 'x-custom' });
    assert.equal(pre.headers['access-control-allow-origin'], '*');
    assert.equal(pre.headers['access-control-allow-headers'], '*');
  });
  await withServed(open.replace('allowed_headers = ["*"]', 'allowed_headers = ["*"]\n    allow_credentials = true'), async ({ app }) => {
    const res = await app.inject({ url: '/a', headers: { origin: 'https://anyone.test' } });
    assert.equal(res.headers['access-control-allow-origin'], 'https://anyone.test');
    assert.equal(res.headers['access-control-allow-credentials'], 'true');
    assert.equal(res.headers.vary, 'Origin');
    const pre = await preflight(app, '/a', 'https://anyone.test', 'GET', { 'access-control-request-headers': 'x-custom, content-type' });
    assert.equal(pre.headers['access-control-allow-headers'], 'x-custom, content-type');
    // A malformed or enormous list is not echoed.
    for (const bad of ['x-a\r\nx-b', 'a,'.repeat(5000), 'x y']) {
      const refused = await preflight(app, '/a', 'https://anyone.test', 'GET', { 'access-control-request-headers': bad.replace(/\r\n/, ' ') });
      assert.equal(refused.statusCode, 204);
      assert.equal(refused.headers['access-control-allow-headers'], undefined);
    }
  });
});

test('a declared OPTIONS endpoint keeps its plain OPTIONS requests; preflights on its path are answered before its guard', async () => {
  const source = `
server {
  cors {
    allowed_origins = ["${APP}"]
  }
}
auth "keys" {
  type = "api_key"
  keys = { alice = "k-alice" }
}
route "OPTIONS /a" {
  auth = [auth.keys]
  respond { body = { options = true } }
}
route "GET /a" {
  respond { body = 1 }
}
`;
  await withServed(source, async ({ app }) => {
    const pre = await preflight(app, '/a', APP, 'GET');
    assert.equal(pre.statusCode, 204);
    assert.equal(pre.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
    const plain = await app.inject({ method: 'OPTIONS', url: '/a', headers: { origin: APP, 'x-api-key': 'k-alice' } });
    assert.equal(plain.statusCode, 200);
    assert.deepEqual(JSON.parse(plain.body), { options: true });
    assert.equal(plain.headers['access-control-allow-origin'], APP);
    assert.equal((await app.inject({ method: 'OPTIONS', url: '/a', headers: { origin: APP } })).statusCode, 401);
  });
});

test('without any cors block nothing changes: OPTIONS is 405 and no answer has CORS headers', async () => {
  await withServed('route "GET /a" {\n  respond { body = 1 }\n}\n', async ({ app }) => {
    const pre = await preflight(app, '/a', APP, 'GET');
    assert.equal(pre.statusCode, 405);
    assertNoCors(pre.headers, 'preflight');
    const res = await app.inject({ url: '/a', headers: { origin: APP } });
    assertNoCors(res.headers, 'GET');
    assert.equal(res.headers.vary, undefined);
  });
});

test("a stream step's Vary joins Origin too", async () => {
  const source = `
server {
  cors {
    allowed_origins = ["${APP}"]
  }
}
route "GET /lines" {
  stream "ndjson" {
    source  = [1]
    headers = { Vary = "Accept-Language" }
  }
}
`;
  await withServed(source, async ({ app }) => {
    const res = await app.inject({ url: '/lines', headers: { origin: APP } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers.vary, 'Origin, Accept-Language');
    assert.equal(res.headers['access-control-allow-origin'], APP);
    assert.equal(res.body, '1\n');
  });
});
