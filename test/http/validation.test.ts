import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldSpec, RequestSpec } from '../../src/schema/field.js';
import { compileValidator } from '../../src/http/validation.js';
import { endpoint, json, NO_REQUEST, server } from './helpers.js';

const field = (name: string, type: FieldSpec['type'], extra: Partial<FieldSpec> = {}): FieldSpec => ({
  name,
  type,
  required: false,
  hasDefault: false,
  ...extra,
});

const SEARCH: RequestSpec = {
  path: [],
  headers: [field('X-Api-Key', { kind: 'string' }, { required: true, format: 'uuid' })],
  query: [
    field('q', { kind: 'string' }, { required: true, minLength: 2 }),
    field('limit', { kind: 'integer' }, { hasDefault: true, default: 20, min: 1, max: 100 }),
  ],
};

const USERS: RequestSpec = {
  path: [field('id', { kind: 'integer' }, { required: true })],
  query: [],
  headers: [],
  body: {
    kind: 'object',
    fields: [
      field('email', { kind: 'string' }, { required: true, format: 'email' }),
      field('role', { kind: 'string' }, { hasDefault: true, default: 'member' }),
    ],
  },
};

function recorder(spec: RequestSpec, label: string) {
  const seen: unknown[] = [];
  const ep = endpoint(
    label,
    (ctx) => {
      seen.push(ctx.request);
      return json({ path: ctx.request.path, query: ctx.request.query, key: ctx.request.headers['x-api-key'] ?? null, body: ctx.request.body ?? null });
    },
    spec,
  );
  return { seen, ep };
}

const KEY = '0f8fad5b-d9cb-469f-a165-70867728950e';

test('valid requests reach the pipeline coerced and defaulted', async () => {
  const { ep } = recorder(SEARCH, 'GET /search');
  const { app } = await server([ep]);
  const r = await app.inject({ method: 'GET', url: '/search?q=hello', headers: { 'x-api-key': KEY } });
  assert.equal(r.statusCode, 200);
  assert.deepEqual(r.json().query, { q: 'hello', limit: 20 });
  const r2 = await app.inject({ method: 'GET', url: '/search?q=hello&limit=7', headers: { 'X-API-KEY': KEY } });
  assert.equal(r2.json().query.limit, 7);
  assert.equal(r2.json().key, KEY);
});

test('constraint violations are a 422 listing every failure, and no step runs', async () => {
  const { ep, seen } = recorder(SEARCH, 'GET /search');
  const { app } = await server([ep]);
  const r = await app.inject({ method: 'GET', url: '/search?q=h&limit=500', headers: { 'x-api-key': 'nope' } });
  assert.equal(r.statusCode, 422);
  assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
  const body = r.json();
  assert.equal(body.type, 'urn:svc:error:validation-error');
  assert.equal(body.title, 'Unprocessable Entity');
  assert.equal(body.detail, 'Request payload failed schema validation constraints');
  assert.equal(body.instance, '/search');
  const reasons = Object.fromEntries(body.invalid_params.map((p: { name: string; reason: string }) => [p.name, p.reason]));
  assert.equal(reasons.q, 'length must be at least 2 characters');
  assert.equal(reasons.limit, 'must be less than or equal to 100');
  assert.equal(reasons['x-api-key'], 'must be a valid uuid format');
  assert.equal(seen.length, 0);
});

test('path parameters and bodies are validated too', async () => {
  const { ep, seen } = recorder(USERS, 'POST /users/{id}');
  const { app } = await server([ep]);
  const ok = await app.inject({ method: 'POST', url: '/users/12', payload: { email: 'a@example.com' } });
  assert.equal(ok.statusCode, 200);
  assert.deepEqual(ok.json().path, { id: 12 });
  assert.deepEqual(ok.json().body, { email: 'a@example.com', role: 'member' });
  const bad = await app.inject({ method: 'POST', url: '/users/x', payload: { email: 'nope' } });
  assert.equal(bad.statusCode, 422);
  const names = bad
    .json()
    .invalid_params.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)
    .sort();
  assert.deepEqual(names, ['body:email', 'path:id']);
  assert.equal(seen.length, 1);
});

test('an endpoint that declares nothing is not validated: the pipeline sees the request as the router parsed it', async () => {
  assert.equal(compileValidator(NO_REQUEST), undefined);
  assert.equal(typeof compileValidator(SEARCH), 'function');
  const { seen, ep } = recorder(NO_REQUEST, 'POST /things/{id}');
  const { app } = await server([ep]);
  const r = await app.inject({
    method: 'POST',
    url: '/things/7?tag=a&tag=b&x=1',
    headers: { 'content-type': 'application/json', 'x-api-key': 'anything' },
    payload: { any: ['thing'] },
  });
  assert.equal(r.statusCode, 200);
  // Path and query values stay text (nothing declares a type), repeated query keys a list.
  assert.deepEqual(r.json(), { path: { id: '7' }, query: { tag: ['a', 'b'], x: '1' }, key: 'anything', body: { any: ['thing'] } });
  assert.equal((seen[0] as { method: string }).method, 'POST');
  // A body that is not JSON arrives as its text.
  const text = await app.inject({ method: 'POST', url: '/things/8', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
  assert.equal(text.json().body, 'hello');
});
