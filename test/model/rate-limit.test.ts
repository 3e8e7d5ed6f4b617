/** `rate_limit` decoded: the server's defaults, endpoints' own limits and exemptions, and what a key may read. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeOf } from '../../src/diag/index.js';
import { buildServiceModel } from '../../src/steps/index.js';

function build(source: string) {
  return buildServiceModel([{ filename: 'f.hcl', source }]);
}

function errors(source: string): string[] {
  return build(source).diagnostics.map((d) => `${d.subject?.start.line}:${d.subject?.start.column} ${codeOf(d)} ${d.summary}`);
}

const ok = (path: string, extra = ''): string => `
route "GET ${path}" {
  ${extra}
  respond { body = "ok" }
}`;

test('the server limit applies to every endpoint; an own block overrides what it sets; false and null exempt', () => {
  const r = build(`
connection "redis" "limits" { url = "memory:" }
server {
  rate_limit {
    max        = 100
    window     = "1m"
    key        = ctx.request.headers.x-api-key
    connection = connection.redis.limits
  }
}
${ok('/a')}
${ok('/b', 'rate_limit {\n max = 5\n }')}
${ok('/health', 'rate_limit = false')}
${ok('/ready', 'rate_limit = null')}
`);
  assert.deepEqual(r.diagnostics, []);
  const model = r.model!;
  assert.equal(model.server.rateLimit?.connection, 'limits');
  const byPath = new Map(model.endpoints.map((e) => [e.path, e.rateLimit]));
  const a = byPath.get('/a')!;
  assert.deepEqual([a.policy, a.max, a.windowMs], ['server', 100, 60_000]);
  assert.ok(a.key);
  const b = byPath.get('/b')!;
  // Its own budget, the server's window and key.
  assert.deepEqual([b.policy, b.max, b.windowMs, b.key === a.key], ['endpoint', 5, 60_000, true]);
  assert.equal(byPath.get('/health'), undefined);
  assert.equal(byPath.get('/ready'), undefined);
});

test('without max and window the server block only gives defaults: endpoints without a block are not limited', () => {
  const r = build(`
server {
  rate_limit { key = ctx.auth.principal }
}
${ok('/a')}
${ok('/b', 'rate_limit {\n max = 2\n window = "10s"\n }')}
`);
  assert.deepEqual(r.diagnostics, []);
  const [a, b] = r.model!.endpoints;
  assert.equal(a!.rateLimit, undefined);
  assert.deepEqual([b!.rateLimit?.policy, b!.rateLimit?.max, b!.rateLimit?.windowMs, b!.rateLimit?.key !== undefined], ['endpoint', 2, 10_000, true]);
});

test('no server block: an endpoint block must say both max and window', () => {
  assert.deepEqual(errors(ok('/a', 'rate_limit {\n max = 2\n }')), ['3:3 SVC_LIMIT_INCOMPLETE Incomplete rate limit']);
  assert.deepEqual(errors(`server {\n  rate_limit { window = "1s" }\n}\n`), ['2:3 SVC_LIMIT_INCOMPLETE Incomplete rate limit']);
});

test('values: max a positive whole number, window a duration, connection a declared redis connection', () => {
  assert.deepEqual(
    errors(`
connection "postgres" "db" { url = "pglite:memory" }
server {
  rate_limit {
    max        = 0
    window     = "soon"
    connection = connection.postgres.db
  }
}
`),
    [
      '5:18 SVC_MANIFEST_INVALID_VALUE Invalid value',
      '6:18 SVC_MANIFEST_INVALID_DURATION Invalid duration',
      '7:18 SVC_REF_WRONG_CONNECTION_KIND Wrong connection kind',
    ],
  );
  assert.deepEqual(errors(ok('/a', 'rate_limit = true')), ['3:16 SVC_MANIFEST_WRONG_TYPE Incorrect attribute value type']);
  assert.deepEqual(errors(ok('/a', 'rate_limit {\n max = 1\n window = "1s"\n connection = "x"\n }')), [
    '6:2 SVC_MANIFEST_UNSUPPORTED_ARGUMENT Unsupported argument',
  ]);
});

test('a key reads only what is known before the body: request method, path, query, headers, ctx.auth, ctx.client_ip', () => {
  const good = [
    'ctx.client_ip',
    'ctx.auth.principal',
    'ctx.request.headers.x-api-key',
    '"${ctx.request.path.id}:${ctx.request.query.tenant}"',
    'coalesce(ctx.request.headers.x-api-key, ctx.client_ip)',
  ];
  for (const key of good) {
    assert.deepEqual(errors(ok('/a/{id}', `rate_limit {\n max = 1\n window = "1s"\n key = ${key}\n }`)), [], key);
  }
  const bad: [string, string][] = [
    ['ctx.request.body.user', 'SVC_LIMIT_INVALID_KEY Invalid rate limit key'],
    ['ctx.request_id', 'SVC_LIMIT_INVALID_KEY Invalid rate limit key'],
    ['ctx.request.cookies', 'SVC_LIMIT_INVALID_KEY Invalid rate limit key'],
    ['"everyone"', 'SVC_LIMIT_INVALID_KEY Invalid rate limit key'],
    ['steps.x.value', 'SVC_EXPR_UNKNOWN_VARIABLE Unknown variable'],
  ];
  for (const [key, expected] of bad) {
    const found = errors(ok('/a', `rate_limit {\n max = 1\n window = "1s"\n key = ${key}\n }`));
    assert.equal(found.length, 1, `${key}: ${found.join('; ')}`);
    assert.equal(found[0]!.replace(/^\S+ /, ''), expected, key);
  }
});

test('documentation endpoints are not limited; both an argument and a block is a conflict', () => {
  const docs = build(`
server {
  rate_limit {
    max    = 1
    window = "1s"
  }
}
endpoint "GET /openapi.json" {
  openapi { format = "json" }
}
`);
  assert.deepEqual(docs.diagnostics, []);
  assert.equal(docs.model!.endpoints[0]!.rateLimit, undefined);
  assert.deepEqual(
    errors(`
endpoint "GET /openapi.json" {
  rate_limit {
    max    = 1
    window = "1s"
  }
  openapi { format = "json" }
}
`),
    ['3:3 SVC_LIMIT_ON_DOCUMENTATION_ENDPOINT Rate limit on a documentation endpoint'],
  );
  assert.deepEqual(errors(ok('/a', 'rate_limit = false\n rate_limit {\n max = 1\n window = "1s"\n }')), ['4:2 SVC_LIMIT_CONFLICTING Conflicting rate limits']);
});
