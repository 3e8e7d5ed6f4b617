/**
 * End to end: the built `svc` binary serving a copy of examples/shop (SPEC.md §4.4 users, onboard,
 * overview) as a process, real HTTP requests, SIGTERM, then a second start on the same database:
 * migrations are not applied twice and what was written is still there. Once on the example's own
 * default (`pglite:.data`, persistent PGlite next to the manifest copy) and once on the real
 * PostgreSQL server of SVC_TEST_POSTGRES_URL (a fresh database, given as DATABASE_URL).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { closeTargets, TARGETS } from '../connectors/helpers.js';
import { ensureBuilt } from './build.js';
import { ROOT as root } from '../paths.js';

const example = join(root, 'examples/shop');

interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** stdout: one JSON log line each. */
  lines(): Record<string, unknown>[];
}

/** `node bin/svc.js serve -c DIR --port 0`, resolved once it prints where it listens. */
async function serve(dir: string, env: Record<string, string>): Promise<Served> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const proc = spawn(process.execPath, ['bin/svc.js', 'serve', '-c', dir, '--port', '0'], {
    cwd: root,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) => proc.once('exit', (code, signal) => ok({ code, signal })));
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  // A fresh PGlite directory runs initdb (2.5-4 s on an idle machine): a generous bound.
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc did not start listening within 60 s:\n${err}`)), 60_000);
    proc.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`svc exited with ${code} before listening:\n${err}`));
    });
  });
  const lines = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  // The log lines of the boot (stdout) may arrive after the stderr line: wait for `listening` there too.
  for (let waited = 0; !lines().some((l) => l.msg === 'listening') && waited < 5000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  return { child: proc, url, exited, lines };
}

async function stop(served: Served): Promise<void> {
  served.child.kill('SIGTERM');
  const { code, signal } = await served.exited;
  assert.equal(signal, null);
  assert.equal(code, 0, 'SIGTERM drains, closes the connection and exits 0');
}

before(() => {
  ensureBuilt();
});

const copies: string[] = [];
after(async () => {
  await closeTargets();
  await Promise.all(copies.map((d) => rm(d, { recursive: true, force: true })));
});

/** examples/shop without its `.data/` (a developer's local database), in a new temporary directory. */
async function copyOfExample(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-e2e-shop-'));
  copies.push(dir);
  await cp(example, dir, { recursive: true, filter: (source) => !source.split(sep).includes('.data') });
  return dir;
}

const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const realServer = TARGETS.find((t) => t.name === 'postgres')!;
const ENGINES = [
  { name: 'pglite (the example as shipped: pglite:.data)', skip: false as const, env: async () => ({}) },
  { name: 'postgres (DATABASE_URL)', skip: realServer.skip, env: async () => ({ DATABASE_URL: await realServer.fresh() }) },
];

for (const engine of ENGINES) {
  describe(`examples/shop on ${engine.name}`, { skip: engine.skip }, () => {
    let dir = '';
    let env: Record<string, string> = {};
    let svc: Served;
    let onboardedId = 0;

    before(async () => {
      dir = await copyOfExample();
      env = await engine.env();
      svc = await serve(dir, env);
    });

    after(() => {
      if (svc && svc.child.exitCode === null && svc.child.signalCode === null) svc.child.kill('SIGKILL');
    });

    test('the first start applies the migration', () => {
      const applied = svc.lines().filter((l) => l.msg === 'migration applied');
      assert.deepEqual(
        applied.map((l) => l.migration),
        ['001_shop.sql'],
      );
      if (env.DATABASE_URL === undefined) assert.ok(existsSync(join(dir, '.data')), 'pglite:.data is relative to the manifest');
    });

    test('GET /api/v1/users/{id}: the row, a 404 problem on zero rows, a 422 on a bad id', async () => {
      const found = await fetch(`${svc.url}/api/v1/users/1`);
      assert.equal(found.status, 200);
      assert.deepEqual(await found.json(), { id: 1, email: 'ada@example.com', full_name: 'Ada Lovelace', created_at: '2024-01-15T09:30:00.000Z' });

      const missing = await fetch(`${svc.url}/api/v1/users/999`);
      assert.equal(missing.status, 404);
      assert.match(missing.headers.get('content-type')!, /^application\/problem\+json/);
      assert.deepEqual(await missing.json(), {
        type: 'urn:svc:error:not-found',
        title: 'User not found',
        status: 404,
        detail: 'There is no user 999.',
        instance: '/api/v1/users/999',
      });

      const bad = await fetch(`${svc.url}/api/v1/users/1%20OR%201=1`);
      assert.equal(bad.status, 422);
    });

    test('POST /api/v1/onboard: 201 {user, workspace} from one transaction; the same e-mail again is a 409', async () => {
      const created = await fetch(`${svc.url}/api/v1/onboard`, json({ email: 'Linus@Example.com', full_name: 'Linus Torvalds' }));
      assert.equal(created.status, 201);
      const body = (await created.json()) as { user: Record<string, unknown>; workspace: Record<string, unknown> };
      assert.equal(body.user.email, 'linus@example.com');
      assert.equal(body.user.full_name, 'Linus Torvalds');
      assert.equal(typeof body.user.id, 'number');
      assert.match(body.user.created_at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(body.workspace.owner_id, body.user.id);
      assert.equal(body.workspace.name, "Linus Torvalds's workspace");
      onboardedId = body.user.id as number;

      const again = await fetch(`${svc.url}/api/v1/onboard`, json({ email: 'LINUS@example.com', full_name: 'Someone Else' }));
      assert.equal(again.status, 409);
      assert.match(again.headers.get('content-type')!, /^application\/problem\+json/);
      assert.deepEqual(await again.json(), {
        type: 'urn:svc:error:conflict',
        title: 'Email already registered',
        status: 409,
        detail: 'linus@example.com already has an account.',
        instance: '/api/v1/onboard',
      });

      const invalid = await fetch(`${svc.url}/api/v1/onboard`, json({ email: 'not-an-email' }));
      assert.equal(invalid.status, 422);
      const names = ((await invalid.json()) as { invalid_params: { name: string }[] }).invalid_params.map((p) => p.name).sort();
      assert.deepEqual(names, ['email', 'full_name']);

      const user = await fetch(`${svc.url}/api/v1/users/${onboardedId}`);
      assert.equal(((await user.json()) as { full_name: string }).full_name, 'Linus Torvalds', 'the conflicting attempt changed nothing');
    });

    test('GET /api/v1/accounts/{id}/overview: three parallel queries, 404 when the account is missing', async () => {
      const r = await fetch(`${svc.url}/api/v1/accounts/1/overview`);
      assert.equal(r.status, 200);
      const body = (await r.json()) as { account: unknown; recent_invoices: Record<string, unknown>[]; recent_events: Record<string, unknown>[] };
      assert.deepEqual(body.account, { id: 1, name: 'Babbage & Co', plan: 'business', created_at: '2023-11-02T10:00:00.000Z' });
      assert.deepEqual(
        body.recent_invoices.map((i) => i.number),
        ['INV-2024-0006', 'INV-2024-0005', 'INV-2024-0004', 'INV-2024-0003', 'INV-2024-0002'],
      );
      assert.deepEqual(body.recent_invoices[0], { number: 'INV-2024-0006', amount: '99.00', currency: 'EUR', status: 'overdue', issued_on: '2024-06-30' });
      assert.equal(body.recent_events.length, 5);
      assert.deepEqual(body.recent_events[0], { kind: 'login', data: { user: 'grace@example.com' }, occurred_at: '2024-06-06T07:55:00.000Z' });

      const small = (await (await fetch(`${svc.url}/api/v1/accounts/2/overview`)).json()) as { recent_invoices: unknown[]; recent_events: unknown[] };
      assert.equal(small.recent_invoices.length, 1);
      assert.equal(small.recent_events.length, 1);

      const missing = await fetch(`${svc.url}/api/v1/accounts/99/overview`);
      assert.equal(missing.status, 404);
      assert.equal(((await missing.json()) as { title: string }).title, 'Account not found');
    });

    test('a second start on the same database applies nothing and keeps what was written', async () => {
      await stop(svc);
      svc = await serve(dir, env);
      assert.deepEqual(
        svc.lines().filter((l) => l.msg === 'migration applied'),
        [],
      );
      const user = await fetch(`${svc.url}/api/v1/users/${onboardedId}`);
      assert.equal(user.status, 200);
      assert.equal(((await user.json()) as { email: string }).email, 'linus@example.com');
      await stop(svc);
    });
  });
}
