import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { svc } from './helpers.js';

const QUICKSTART = 'examples/quickstart';
const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function manifest(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
  made.push(dir);
  writeFileSync(join(dir, 'main.hcl'), text);
  return dir;
}

function hasDot(): boolean {
  try {
    execFileSync('dot', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('--version prints the package version', async () => {
  const r = await svc(['--version']);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, `svc ${version}\n`);
});

test('--help lists every command; COMMAND --help shows its options', async () => {
  const r = await svc(['--help']);
  assert.equal(r.code, 0);
  for (const c of ['serve', 'check', 'graph', 'openapi', 'starlark', '--version']) assert.match(r.stdout, new RegExp(`svc ${c}`));
  const serve = await svc(['serve', '--help']);
  assert.equal(serve.code, 0);
  assert.match(serve.stdout, /--port P/);
  const help = await svc(['help', 'graph']);
  assert.match(help.stdout, /--endpoint/);
});

test('no command prints the usage and exits 2', async () => {
  const r = await svc([]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Usage:/);
});

test('an unknown command or flag is a clear message, the usage, exit 2', async () => {
  const cmd = await svc(['frobnicate']);
  assert.equal(cmd.code, 2);
  assert.match(cmd.stderr, /unknown command "frobnicate"/);
  assert.match(cmd.stderr, /Usage:/);
  const flag = await svc(['serve', '-c', QUICKSTART, '--prot', '80']);
  assert.equal(flag.code, 2);
  assert.match(flag.stderr, /svc serve: unknown flag --prot/);
  assert.match(flag.stderr, /Usage: svc serve/);
  const missing = await svc(['graph']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /manifest directory is required/);
  const global = await svc(['--verbose']);
  assert.equal(global.code, 2);
});

test('openapi prints the document as JSON; a bad --format is a usage error', async () => {
  const r = await svc(['openapi', '-c', QUICKSTART]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as { openapi: string }).openapi, '3.1.0');
  const bad = await svc(['openapi', '-c', QUICKSTART, '--format=xml']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--format must be "json" or "yaml"/);
});

test('a manifest error exits 1 with every diagnostic, HCL-style; no stack trace', async () => {
  const dir = manifest(
    'endpoint "GET /a" {\n  pipeline {\n    sql "q" {\n      connection = connection.postgres.db\n      query = "select 1"\n    }\n    respond { status = 200 }\n  }\n}\n',
  );
  const r = await svc(['serve', '-c', dir]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /Error: /);
  assert.match(r.stderr, /on .*main\.hcl line \d+/);
  assert.doesNotMatch(r.stderr, /\n\s+at .*\.(ts|js):\d+/);
});

test('a stream step is served: check accepts it and graph draws its sink with the format', async () => {
  const dir = manifest(
    'connection "redis" "c" {\n  url = "memory:"\n}\nendpoint "GET /a" {\n  pipeline {\n    kv "q" {\n      op  = "GET"\n      key = "k"\n    }\n    stream "ndjson" {\n      source = steps.q.value\n    }\n  }\n}\n',
  );
  const r = await svc(['check', '-c', dir]);
  assert.equal(r.code, 0, r.stderr);
  const g = await svc(['graph', '-c', dir]);
  assert.equal(g.code, 0, g.stderr);
  assert.match(g.stdout, /label="stream\\nndjson"/);
  assert.match(g.stdout, /style=dashed/, 'the stream reads steps.q: a data edge');
});

test('graph prints DOT for every endpoint, or one with --endpoint', async () => {
  const all = await svc(['graph', '-c', QUICKSTART]);
  assert.equal(all.code, 0);
  assert.match(all.stdout, /^digraph svc \{/);
  assert.match(all.stdout, /label="GET \/api\/v1\/health"/);
  assert.match(all.stdout, /label="GET \/api\/v1\/teapots\/\{kind\}"/);
  const one = await svc(['graph', '-c', QUICKSTART, '--endpoint', 'get /api/v1/health']);
  assert.equal(one.code, 0);
  assert.match(one.stdout, /GET \/api\/v1\/health/);
  assert.doesNotMatch(one.stdout, /teapots/);
  const none = await svc(['graph', '-c', QUICKSTART, '--endpoint', 'GET /nope']);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /no endpoint "GET \/nope"/);
});

test('graph output is accepted by Graphviz dot', { skip: hasDot() ? false : 'Graphviz `dot` is not installed (apt-get install graphviz)' }, async () => {
  for (const dir of [QUICKSTART, 'examples/validation']) {
    const r = await svc(['graph', '-c', dir]);
    assert.equal(r.code, 0, r.stderr);
    const svg = execFileSync('dot', ['-Tsvg'], { input: r.stdout }).toString();
    assert.match(svg, /<svg/);
  }
});

test('check and starlark are delegated', async () => {
  const check = await svc(['check', '-c', QUICKSTART]);
  assert.equal(check.code, 0);
  assert.match(check.stdout, /ok: 12 endpoints/);
  const dir = manifest('');
  writeFileSync(join(dir, 'double.star'), 'def execute(ctx):\n    return {"n": ctx["x"] * 2}\n');
  const star = await svc(['starlark', join(dir, 'double.star'), '--ctx', '{"x": 21}']);
  assert.equal(star.code, 0, star.stderr);
  assert.deepEqual(JSON.parse(star.stdout), { n: 42 });
});

test('a port in use is a clear message and exit 1, not a stack trace', async () => {
  const blocker = createServer();
  await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
  const { port } = blocker.address() as { port: number };
  try {
    const r = await svc(['serve', '-c', QUICKSTART, '--host', '127.0.0.1', '--port', String(port)]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the address is already in use`));
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  } finally {
    blocker.close();
  }
});
