/**
 * End to end: the built `svc` binary (bin/svc.js -> dist/) serving examples/quickstart as a process,
 * real HTTP requests, then SIGTERM and a clean exit.
 */
import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
let child: ChildProcess;
let base = '';
let stdout = '';
let stderr = '';
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

before(async () => {
  // The build may report type errors in code under construction elsewhere and still emit; what
  // matters here is that the binary's entry point exists.
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'pipe' });
  } catch {
    // Checked just below.
  }
  assert.ok(existsSync(join(root, 'dist/src/cli/main.js')), 'npm run build produced dist/src/cli/main.js');

  child = spawn(process.execPath, ['bin/svc.js', 'serve', '-c', 'examples/quickstart', '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  base = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc did not start listening within 20 s:\n${stderr}`)), 20_000);
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`svc exited with ${code} before listening:\n${stderr}`)));
  });
});

after(() => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
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
  child.kill('SIGTERM');
  const { code, signal } = await exited;
  assert.equal(signal, null);
  assert.equal(code, 0);
  const lines = stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const requests = lines.filter((l) => l.msg === 'request');
  assert.ok(requests.length >= 8, `one line per request (got ${requests.length})`);
  assert.ok(requests.some((l) => l.reqId === 'e2e-health' && l.status === 200 && l.url === '/api/v1/health'));
  assert.ok(lines.some((l) => l.msg === 'stopped'));
});
