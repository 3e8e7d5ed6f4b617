/**
 * End to end: the built `svc` binary (bin/svc.js -> dist/) serving examples/quickstart and
 * examples/validation as processes, real HTTP requests, then SIGTERM/SIGINT and a clean exit.
 * One file, so the build runs once.
 */
import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { ensureBuilt } from './build.js';
import { ROOT as root } from '../paths.js';

interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): { stdout: string; stderr: string };
}

/** `node bin/svc.js serve -c DIR --port 0`, resolved once it prints where it listens. */
async function serve(dir: string): Promise<Served> {
  const proc = spawn(process.execPath, ['bin/svc.js', 'serve', '-c', dir, '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) => proc.once('exit', (code, signal) => ok({ code, signal })));
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc did not start listening within 20 s:\n${err}`)), 20_000);
    proc.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    });
    proc.once('exit', (code) => reject(new Error(`svc exited with ${code} before listening:\n${err}`)));
  });
  return { child: proc, url, exited: done, output: () => ({ stdout: out, stderr: err }) };
}

let quickstart: Served;
let validation: Served;
let base = '';

before(async () => {
  ensureBuilt();

  quickstart = await serve('examples/quickstart');
  base = quickstart.url;
  validation = await serve('examples/validation');
});

after(() => {
  for (const proc of [quickstart?.child, validation?.child]) if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
});

test('the health endpoint answers {status, timestamp}', async () => {
  const r = await fetch(`${base}/api/v1/health`, { headers: { 'x-request-id': 'e2e-health' } });
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type')!, /^application\/json/);
  assert.equal(r.headers.get('x-request-id'), 'e2e-health');
  const body = (await r.json()) as { status: string; timestamp: number };
  assert.equal(body.status, 'ok');
  assert.ok(Math.abs(body.timestamp - Date.now() / 1000) < 5);
});

test('expression-rich endpoints: parameters, defaults, templates, functions', async () => {
  const greet = await fetch(`${base}/api/v1/greet/ada?lang=fr&shout=true`);
  assert.equal(greet.status, 200);
  assert.equal(greet.headers.get('content-language'), 'fr');
  assert.deepEqual(await greet.json(), { message: 'Bonjour, ADA!', length: 3 });
  const words = await fetch(`${base}/api/v1/words?text=${encodeURIComponent('Hello big World')}`);
  const body = (await words.json()) as { words: string[]; slug: string };
  assert.deepEqual(body.words, ['hello', 'big', 'world']);
  assert.equal(body.slug, 'hello-big-world');
});

test('conditional respond: problem() early exit, then the final respond', async () => {
  const miss = await fetch(`${base}/api/v1/teapots/coffee`);
  assert.equal(miss.status, 404);
  assert.match(miss.headers.get('content-type')!, /^application\/problem\+json/);
  const problem = (await miss.json()) as Record<string, unknown>;
  assert.equal(problem.type, 'urn:svc:error:not-found');
  assert.equal(problem.instance, '/api/v1/teapots/coffee');
  const tea = await fetch(`${base}/api/v1/teapots/tea`);
  assert.equal(tea.status, 418);
});

test('validation, 404 and 405 are problem details', async () => {
  const bad = await fetch(`${base}/api/v1/greet/ada?lang=xx`);
  assert.equal(bad.status, 422);
  const unknown = await fetch(`${base}/nope`);
  assert.equal(unknown.status, 404);
  const method = await fetch(`${base}/api/v1/health`, { method: 'DELETE' });
  assert.equal(method.status, 405);
  assert.equal(method.headers.get('allow'), 'GET, HEAD');
});

test('SIGTERM stops the server cleanly (exit 0) and every request was logged', async () => {
  quickstart.child.kill('SIGTERM');
  const { code, signal } = await quickstart.exited;
  assert.equal(signal, null);
  assert.equal(code, 0);
  const lines = quickstart
    .output()
    .stdout.split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const requests = lines.filter((l) => l.msg === 'request');
  assert.ok(requests.length >= 8, `one line per request (got ${requests.length})`);
  assert.ok(requests.some((l) => l.reqId === 'e2e-health' && l.status === 200 && l.url === '/api/v1/health'));
  assert.ok(lines.some((l) => l.msg === 'stopped'));
});

test('validation example: a Starlark step, the route dialect, schema bodies with defaults', async () => {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${validation.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const transform = await post('/api/v1/transform', { prefix: 'tag', tags: ['  Alpha', 'BETA ', '', '  '] });
  assert.equal(transform.status, 200);
  assert.deepEqual(await transform.json(), { count: 2, tags: ['tag:alpha', 'tag:beta'] });
  const defaults = await post('/api/v1/transform', {});
  assert.deepEqual(await defaults.json(), { count: 0, tags: [] });
  const account = await post('/accounts/12', { name: 'abc' }, { 'x-api-key': '0f8fad5b-d9cb-469f-a165-70867728950e' });
  assert.deepEqual(await account.json(), { updated: true, id: 12 });
  const bad = await post('/accounts/x?channel=tv', { name: 'a' });
  assert.equal(bad.status, 422);
  const names = ((await bad.json()) as { invalid_params: { name: string }[] }).invalid_params.map((p) => p.name).sort();
  assert.deepEqual(names, ['channel', 'id', 'name', 'x-api-key']);
  const malformed = await fetch(`${validation.url}/api/v1/transform`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"tags": [' });
  assert.equal(malformed.status, 400);
  assert.match(((await malformed.json()) as { detail: string }).detail, /^invalid JSON payload: /);
});

test('SIGINT stops the second server cleanly too', async () => {
  validation.child.kill('SIGINT');
  const { code, signal } = await validation.exited;
  assert.equal(signal, null);
  assert.equal(code, 0);
});
