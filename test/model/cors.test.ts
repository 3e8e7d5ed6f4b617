/** `cors` decoded: the server's policy and its defaults, endpoints' own blocks over it, `cors = false`, and every diagnostic. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeOf } from '../../src/diag/index.js';
import { buildServiceModel } from '../../src/steps/index.js';

function build(source: string) {
  return buildServiceModel([{ filename: 'f.hcl', source }]);
}

function diagnostics(source: string): string[] {
  return build(source).diagnostics.map((d) => `${d.subject?.start.line}:${d.subject?.start.column} ${d.severity} ${codeOf(d)}`);
}

const route = (path: string, extra = ''): string => `
route "GET ${path}" {
  ${extra}
  respond { body = "ok" }
}`;

test("the Go project's names and types: lists, a bool, max_age in seconds; defaults for what is left out", () => {
  const r = build(`
server {
  cors {
    allowed_origins   = ["https://App.Example.com", "https://*.example.org", "http://127.0.0.1:8080"]
    allowed_methods   = ["get", "POST"]
    allowed_headers   = ["Content-Type", "X-Api-Key"]
    exposed_headers   = ["X-Trace"]
    allow_credentials = true
    max_age           = 3600
  }
}
${route('/a')}
${route('/b', 'cors {\n    allowed_origins = "https://partner.example.net"\n    max_age = "2m"\n  }')}
${route('/c', 'cors = false')}
${route('/d', 'cors = null')}
`);
  assert.deepEqual(r.diagnostics, []);
  const server = r.model!.server.cors!;
  assert.deepEqual(server.allowedOrigins, ['https://app.example.com', 'https://*.example.org', 'http://127.0.0.1:8080']);
  assert.deepEqual(server.allowedMethods, ['GET', 'POST']);
  assert.deepEqual(server.allowedHeaders, ['content-type', 'x-api-key']);
  assert.deepEqual(server.exposedHeaders, ['X-Trace']);
  assert.equal(server.allowCredentials, true);
  assert.equal(server.maxAgeSeconds, 3600);
  const byPath = new Map(r.model!.endpoints.map((e) => [e.path, e.cors]));
  assert.equal(byPath.get('/a'), server);
  // Its own origins and max age; the rest from the server's block.
  const b = byPath.get('/b')!;
  assert.deepEqual(b.allowedOrigins, ['https://partner.example.net']);
  assert.equal(b.maxAgeSeconds, 120);
  assert.deepEqual([b.allowedMethods, b.allowedHeaders, b.allowCredentials], [server.allowedMethods, server.allowedHeaders, true]);
  assert.equal(byPath.get('/c'), undefined);
  assert.equal(byPath.get('/d'), undefined);

  const defaults = build(`server {\n  cors {\n    allowed_origins = ["*"]\n  }\n}\n${route('/a')}`).model!.server.cors!;
  assert.deepEqual(
    [defaults.allowedMethods, defaults.allowedHeaders, defaults.exposedHeaders, defaults.allowCredentials, defaults.maxAgeSeconds],
    ['*', ['accept', 'content-type', 'x-requested-with', 'x-request-id'], [], false, 600],
  );
  // No cors block anywhere: no policy.
  assert.equal(build(route('/a')).model!.endpoints[0]!.cors, undefined);
});

test('origins no browser sends are refused at boot, each with its place', () => {
  const bad = [
    'https://app.example.com/',
    'https://app.example.com/path',
    'https://app.*.com',
    '*.example.com',
    'app.example.com',
    'https://a.example.com:99999',
    '',
  ];
  for (const origin of bad) {
    assert.deepEqual(diagnostics(`server {\n  cors {\n    allowed_origins = ["${origin}"]\n  }\n}\n`), ['3:23 error SVC_CORS_INVALID_ORIGIN'], origin);
  }
  const detail = build('server {\n  cors {\n    allowed_origins = ["https://app.example.com/"]\n  }\n}\n').diagnostics[0]!.detail;
  assert.match(detail!, /write "https:\/\/app\.example\.com"/);
});

test('methods, header names, max_age, exposed "*", types', () => {
  const cases: [string, string][] = [
    ['allowed_methods = ["GET", "FETCH"]', 'SVC_CORS_UNKNOWN_METHOD'],
    ['allowed_headers = ["X Api"]', 'SVC_CORS_INVALID_HEADER'],
    ['exposed_headers = ["a:b"]', 'SVC_CORS_INVALID_HEADER'],
    ['exposed_headers = ["*"]', 'SVC_MANIFEST_INVALID_VALUE'],
    ['max_age = -1', 'SVC_MANIFEST_INVALID_VALUE'],
    ['max_age = 100000', 'SVC_MANIFEST_INVALID_VALUE'],
    ['max_age = "soon"', 'SVC_MANIFEST_INVALID_DURATION'],
    ['allow_credentials = "yes"', 'SVC_MANIFEST_WRONG_TYPE'],
    ['allowed_methods = 3', 'SVC_MANIFEST_WRONG_TYPE'],
  ];
  for (const [attr, code] of cases) {
    const got = diagnostics(`server {\n  cors {\n    allowed_origins = ["*"]\n    ${attr}\n  }\n}\n`);
    assert.equal(got.length, 1, `${attr}: ${got.join('; ')}`);
    assert.match(got[0]!, new RegExp(`^4:\\d+ error ${code}$`), attr);
  }
});

test('"*" with credentials is a warning (the origin is echoed); a block without origins to inherit, both forms, a typo', () => {
  assert.deepEqual(diagnostics('server {\n  cors {\n    allowed_origins = ["*"]\n    allow_credentials = true\n  }\n}\n'), [
    '2:3 warning SVC_CORS_ANY_ORIGIN_WITH_CREDENTIALS',
  ]);
  assert.deepEqual(diagnostics(route('/a', 'cors {\n    max_age = 5\n  }')), ['3:3 error SVC_CORS_MISSING_ORIGINS']);
  assert.deepEqual(diagnostics(route('/a', 'cors = false\n  cors {\n    allowed_origins = ["*"]\n  }')), ['4:3 error SVC_CORS_CONFLICTING']);
  assert.deepEqual(diagnostics(route('/a', 'cors = true')), ['3:10 error SVC_MANIFEST_WRONG_TYPE']);
  const typo = build('server {\n  cors {\n    allowed_origin = ["*"]\n  }\n}\n').diagnostics;
  assert.ok(typo.some((d) => d.suggestion?.includes('allowed_origins') || d.detail?.includes('allowed_origins')));
});
