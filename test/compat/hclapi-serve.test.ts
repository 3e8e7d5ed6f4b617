/**
 * Manifests in hclapi's dialect (test/compat/hclapi/legacy and current, our own, in the spellings of
 * that project's two generations of examples) served by svc on the real PostgreSQL (a fresh database
 * each, with the manifest's init.sql) and Redis: every endpoint answers as that project's examples
 * say (status and body shape). Then the round trip: `svc fmt --fix` of a copy, served on another
 * fresh database, gives the same answers, and `svc check` of it reports no SVC_COMPAT_ warning.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { codeOf } from '../../src/diag/index.js';
import { createServer, loadService, type SvcServer } from '../../src/api/index.js';
import { createConnectors } from '../../src/connectors/index.js';
import { loadServiceModel } from '../../src/steps/index.js';
import { hsToken, SECRET } from '../auth/helpers.js';
import { svc } from '../cli/helpers.js';
import { closeTargets, modelOf, NO_REAL_POSTGRES, postgresConnection, REAL_POSTGRES_URL, TARGETS, tempDir } from '../connectors/helpers.js';
import { NO_REAL_REDIS, REAL_REDIS_URL } from '../redis/helpers.js';
import { ROOT } from '../paths.js';

const FIXTURES = join(ROOT, 'test/compat/hclapi');
const realPostgres = TARGETS.find((t) => t.name === 'postgres')!;
const skip = REAL_POSTGRES_URL === undefined ? NO_REAL_POSTGRES : REAL_REDIS_URL === undefined ? NO_REAL_REDIS : false;

after(closeTargets);

/** One request and what came back: the status, the headers a test reads, the body (JSON when it is). */
interface Answer {
  readonly status: number;
  readonly type: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

type Send = (method: string, url: string, options?: { body?: unknown; headers?: Record<string, string> }) => Promise<Answer>;

function sender(base: string): Send {
  return async (method, url, options = {}) => {
    const res = await fetch(base + url, {
      method,
      headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const type = res.headers.get('content-type') ?? '';
    const headers: Record<string, string> = {};
    for (const h of ['x-cache', 'x-conflict', 'access-control-allow-origin']) if (res.headers.get(h) !== null) headers[h] = res.headers.get(h)!;
    const text = await res.text();
    return { status: res.status, type: type.split(';')[0]!, headers, body: type.includes('json') ? JSON.parse(text) : text };
  };
}

/** A fresh database with the fixture's init.sql applied. */
async function freshDatabase(fixture: string): Promise<string> {
  const url = await realPostgres.fresh();
  const set = createConnectors(modelOf(postgresConnection(url, { name: 'init' })));
  await set.openAll();
  try {
    await set.handle('postgres', 'init').query(await readFile(join(FIXTURES, fixture, 'init.sql'), 'utf8'));
  } finally {
    await set.closeAll();
  }
  return url;
}

/** The fixture as written and its `svc fmt --fix` copy, in a temporary directory each. */
async function copies(fixture: string): Promise<{ dialect: string; fixed: string }> {
  const dialect = join(await tempDir('svc-hclapi-'), fixture);
  const fixed = join(await tempDir('svc-hclapi-fixed-'), fixture);
  await cp(join(FIXTURES, fixture), dialect, { recursive: true });
  await cp(join(FIXTURES, fixture), fixed, { recursive: true });
  const ran = await svc(['fmt', '--fix', '-c', fixed]);
  assert.equal(ran.code, 0, ran.stderr);
  return { dialect, fixed };
}

async function compatCodes(dir: string): Promise<{ errors: string[]; compat: string[] }> {
  const { diagnostics } = await loadServiceModel(dir);
  return {
    errors: diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.summary}: ${d.detail}`),
    compat: diagnostics.map((d) => codeOf(d) ?? '').filter((c) => c.startsWith('SVC_COMPAT_')),
  };
}

/** Serves `dir` as `svc serve` does (the library's loadService and createServer) with `env` set, runs the scenario, gives back its answers in order. */
async function served(dir: string, env: Record<string, string>, scenario: (send: Send) => Promise<void>): Promise<Answer[]> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const answers: Answer[] = [];
  const logs: string[] = [];
  let server: SvcServer | undefined;
  try {
    const loaded = await loadService(dir);
    assert.ok(loaded.service, loaded.report);
    server = await createServer(loaded.service, { log: { stream: { write: (line: string) => logs.push(line) } } });
    const { url } = await server.listen({ host: '127.0.0.1', port: 0 });
    const send = sender(url);
    await scenario(async (...args) => {
      const a = await send(...args);
      answers.push(a);
      return a;
    });
  } catch (e) {
    // What the server logged says why an answer was a 500.
    throw new Error(`${e instanceof Error ? e.message : String(e)}\n${logs.filter((l) => /"level":(40|50)/.test(l)).join('')}`, { cause: e });
  } finally {
    await server?.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  return answers;
}

/** What may differ between two servings: the time. */
function stable(answers: readonly Answer[]): unknown {
  return JSON.parse(JSON.stringify(answers, (k, v: unknown) => (k === 'timestamp' ? '<time>' : v)));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

describe('the older generation: api block, jwt guard, .result, abort_with_status, pool and server spellings, commas', { skip }, () => {
  const legacy = async (send: Send): Promise<void> => {
    const onboarded = await send('POST', '/api/v1/onboard', { body: { email: 'Jane@Example.com', full_name: ' Jane Doe ' } });
    assert.equal(onboarded.status, 201, JSON.stringify(onboarded.body));
    assert.ok(isObject(onboarded.body));
    // `.result` of a write is its row (hclapi's later examples spell it .row), not a list.
    assert.deepEqual(onboarded.body.user, { id: 1, email: 'jane@example.com', full_name: 'Jane Doe' });
    assert.deepEqual(onboarded.body.workspace, { id: 1, slug: 'jane', plan: 'free' });
    const again = await send('POST', '/api/v1/onboard', { body: { email: 'jane@example.com', full_name: 'Jane Doe' } });
    assert.equal(again.status, 409, 'catch "23505" { abort_with_status = 409 }');
    assert.deepEqual(again.body, { code: 'USER_ALREADY_EXISTS', error: 'A user with this email address already exists' });

    const miss = await send('GET', '/api/v1/products/KB-MECH-01');
    assert.equal(miss.status, 200);
    assert.equal(miss.headers['x-cache'], 'MISS');
    assert.deepEqual(miss.body, { id: 1, sku: 'KB-MECH-01', name: 'Mechanical keyboard', price_cents: 12900 });
    const hit = await send('GET', '/api/v1/products/KB-MECH-01');
    assert.equal(hit.status, 200, 'json_decode of the cached value is the value, not a 500');
    assert.equal(hit.headers['x-cache'], 'HIT');
    assert.deepEqual(hit.body, miss.body);
    const unknown = await send('GET', '/api/v1/products/UNKNOWN-SKU');
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { error: 'Product SKU not found' });

    const overview = await send('GET', '/api/v1/accounts/1/overview');
    assert.equal(overview.status, 200);
    assert.ok(isObject(overview.body));
    assert.deepEqual(overview.body.account, { id: 1, name: 'Acme', tier: 'enterprise' });
    assert.ok(Array.isArray(overview.body.recent_invoices) && overview.body.recent_invoices.length === 5, 'a LIMIT 5 query read as .result is its rows');
    assert.equal((await send('GET', '/api/v1/accounts/999/overview')).status, 404);

    // The api block's auth guards every endpoint without its own auth; its prefix is on every path.
    assert.equal((await send('GET', '/api/v1/users/me')).status, 401);
    const token = await hsToken({ sub: 1 } as never, { secret: SECRET });
    const me = await send('GET', '/api/v1/users/me', { headers: { authorization: `Bearer ${token}` } });
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.deepEqual(me.body, { id: 1, full_name: 'Jane Doe', email: 'jane@example.com' });
    assert.equal((await send('GET', '/users/me', { headers: { authorization: `Bearer ${token}` } })).status, 404, 'no path without the prefix');

    const health = await send('GET', '/api/v1/health/live', { headers: { origin: 'https://dashboard.example.com' } });
    assert.equal(health.status, 200);
    assert.ok(isObject(health.body) && health.body.status === 'OK' && typeof health.body.timestamp === 'number');
    assert.equal(health.headers['access-control-allow-origin'], 'https://dashboard.example.com', 'server { cors {} } as hclapi spells it');

    const hook = await send('POST', '/api/v1/webhooks/stripe', {
      body: { type: 'charge.succeeded', data: { id: 'ch_1' } },
      headers: { 'stripe-signature': 't=1' },
    });
    assert.equal(hook.status, 200);
    assert.deepEqual(hook.body, { received: true, type: 'charge.succeeded' });
    const unsigned = await send('POST', '/api/v1/webhooks/stripe', { body: { type: 'x', data: 1 } });
    assert.ok(unsigned.status >= 400 && unsigned.status < 500 && unsigned.type === 'application/problem+json', 'a required header missing');
    const noType = await send('POST', '/api/v1/webhooks/stripe', { body: { data: 1 }, headers: { 'stripe-signature': 't=1' } });
    assert.equal(noType.status, 422, 'field "type" { type = string, required = true }: the comma-separated required is read');
  };

  test('served as written, then as svc fmt --fix writes it: the same answers, no compat warning left', async () => {
    const { dialect, fixed } = await copies('legacy');
    const env = (url: string, prefix: string) => ({
      LEGACY_DATABASE_URL: url,
      LEGACY_REDIS_URL: REAL_REDIS_URL!,
      LEGACY_JWT_SECRET: SECRET,
      LEGACY_KEY_PREFIX: `svc-test:${process.pid}:${prefix}:`,
    });
    const asWritten = await served(dialect, env(await freshDatabase('legacy'), 'a'), legacy);
    const asFixed = await served(fixed, env(await freshDatabase('legacy'), 'b'), legacy);
    assert.deepEqual(stable(asFixed), stable(asWritten));

    Object.assign(process.env, env(REAL_POSTGRES_URL!, 'c'));
    const before = await compatCodes(dialect);
    const afterFix = await compatCodes(fixed);
    assert.deepEqual(before.errors, []);
    assert.ok(before.compat.length >= 10, `the dialect is reported: ${before.compat.join(', ')}`);
    assert.deepEqual(afterFix.errors, []);
    assert.deepEqual(afterFix.compat, [], 'the fixed manifest is svc spelling only');
    const auth = await readFile(join(fixed, 'auth.hcl'), 'utf8');
    assert.match(auth, /type = "bearer"\n {2}jwt \{\n {4}secret = env\("LEGACY_JWT_SECRET"\)\n {2}\}/);
  });
});

describe('the current generation: source and pool spellings, problem block, request headers = schema.x, respond schema, CALL', { skip }, () => {
  const current = async (send: Send): Promise<void> => {
    const list = await send('GET', '/api/v1/members');
    assert.equal(list.status, 200);
    assert.ok(Array.isArray(list.body) && list.body.length === 2);
    for (const m of list.body)
      assert.deepEqual(
        Object.keys(m as object).sort(),
        ['email', 'id', 'name', 'points', 'tier'],
        'schema = list(schema.member) sends the declared fields only',
      );

    const created = await send('POST', '/api/v1/members', {
      body: { name: 'Alice Smith', email: 'alice@example.com', tier: 'premium' },
      headers: { 'x-tenant': 'acme' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body, { id: 3, name: 'Alice Smith', email: 'alice@example.com', tier: 'premium', points: 0 });
    const noTenant = await send('POST', '/api/v1/members', { body: { name: 'Bob Roe', email: 'bob@example.com' } });
    assert.ok(noTenant.status >= 400 && noTenant.status < 500, 'headers = schema.tenant_headers: x-tenant is required');
    const duplicate = await send('POST', '/api/v1/members', { body: { name: 'Alice', email: 'alice@example.com' }, headers: { 'x-tenant': 'acme' } });
    assert.equal(duplicate.status, 409);
    assert.equal(duplicate.type, 'application/problem+json');
    assert.equal(duplicate.headers['x-conflict'], 'email', 'catch { headers }');
    // svc's meaning of problem(status, title, detail) is kept (SVC_COMPAT_PROBLEM_ARGUMENTS says so).
    assert.ok(isObject(duplicate.body) && duplicate.body.title === 'Email address already registered' && duplicate.body.status === 409);

    const one = await send('GET', '/api/v1/members/1');
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, { id: 1, name: 'Jane Developer', email: 'jane@example.com', tier: 'enterprise', points: 500 });
    const missing = await send('GET', '/api/v1/members/999');
    assert.equal(missing.status, 404);
    assert.equal(missing.type, 'application/problem+json');

    const retiered = await send('PUT', '/api/v1/members/1', { body: { tier: 'premium' } });
    assert.equal(retiered.status, 200, JSON.stringify(retiered.body));
    assert.ok(isObject(retiered.body) && retiered.body.tier === 'premium' && retiered.body.name === 'Jane Developer', '@name used twice, null both times');
    const renamed = await send('PUT', '/api/v1/members/1', { body: { name: 'Janet Developer' } });
    assert.ok(isObject(renamed.body) && renamed.body.name === 'Janet Developer' && renamed.body.tier === 'premium');
    assert.equal((await send('PUT', '/api/v1/members/999', { body: { tier: 'premium' } })).status, 404);

    const reward = await send('POST', '/api/v1/members/1/reward', { body: { bonus: 250 } });
    assert.equal(reward.status, 200);
    assert.deepEqual(reward.body, { message: 'Points awarded successfully', member_id: 1, awarded: 250 });
    const rewarded = await send('GET', '/api/v1/members/1');
    assert.ok(isObject(rewarded.body) && rewarded.body.points === 750, 'CALL award_member_points ran');

    assert.equal((await send('DELETE', '/api/v1/members/2')).status, 204);
    assert.equal((await send('DELETE', '/api/v1/members/2')).status, 404);

    const spec = await send('GET', '/openapi.json');
    assert.equal(spec.status, 200);
    assert.ok(isObject(spec.body) && isObject(spec.body.paths) && '/api/v1/members/{id}' in spec.body.paths);
    const docs = await send('GET', '/docs');
    assert.equal(docs.status, 200);
    assert.equal(docs.type, 'text/html');
  };

  test('served as written, then as svc fmt --fix writes it: the same answers, no compat warning left', async () => {
    const { dialect, fixed } = await copies('current');
    const asWritten = await served(dialect, { CURRENT_DATABASE_URL: await freshDatabase('current') }, current);
    const asFixed = await served(fixed, { CURRENT_DATABASE_URL: await freshDatabase('current') }, current);
    assert.deepEqual(stable(asFixed), stable(asWritten));

    process.env.CURRENT_DATABASE_URL = REAL_POSTGRES_URL!;
    const before = await compatCodes(dialect);
    const afterFix = await compatCodes(fixed);
    assert.deepEqual(before.errors, []);
    assert.ok(before.compat.includes('SVC_COMPAT_PROBLEM_BLOCK') && before.compat.includes('SVC_COMPAT_REQUEST_ATTRIBUTE'), before.compat.join(', '));
    assert.deepEqual(afterFix.errors, []);
    // problem(status, text, type) is svc spelling too: its warning stays only beside other hclapi spellings.
    assert.deepEqual(afterFix.compat, []);
  });
});
