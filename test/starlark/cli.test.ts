import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { starlarkCommand } from '../../src/cli/starlark.js';

function io() {
  const out: string[] = [],
    err: string[] = [];
  return {
    out,
    err,
    io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) }, env: process.env, cwd: process.cwd() },
  };
}

const dir = mkdtempSync(join(tmpdir(), 'svc-starlark-'));
after(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, src: string): string {
  const p = join(dir, name);
  writeFileSync(p, src);
  return p;
}

test('runs a module; print goes to stdout', async () => {
  const t = io();
  const code = await starlarkCommand([file('hello.star', 'print("hello", 1 + 1)\n')], t.io);
  assert.equal(code, 0);
  assert.equal(t.out.join(''), 'hello 2\n');
  assert.equal(t.err.join(''), '');
});

test('--ctx calls execute(ctx) and prints the result as JSON', async () => {
  const t = io();
  const f = file('transform.star', 'def execute(ctx):\n    return {"n": len(ctx["tags"]), "big": 1 << 70, "t": ctx["tags"][0].upper()}\n');
  const code = await starlarkCommand([f, '--ctx', '{"tags": ["a", "b"]}'], t.io);
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(t.out.join('').replace(/: (\d{16,})/g, ': "$1"')), { n: 2, big: '1180591620717411303424', t: 'A' });
  assert.match(t.out.join(''), /"big": 1180591620717411303424/);
});

test('fail() goes to stderr with the backtrace, exit code 1', async () => {
  const t = io();
  const f = file('bad.star', 'def execute(ctx):\n    fail("no tags")\n');
  const code = await starlarkCommand([f, '--ctx', '{}'], t.io);
  assert.equal(code, 1);
  assert.match(t.err.join(''), /Traceback \(most recent call last\):\n {2}.*bad\.star:2:9: in execute\nError in fail: fail: no tags\n/);
});

test('compile errors and bad arguments', async () => {
  const t = io();
  assert.equal(await starlarkCommand([file('syntax.star', 'x = (\n')], t.io), 1);
  assert.match(t.err.join(''), /syntax\.star:2:1: got end of file, want primary expression|syntax\.star:\d+:\d+: /);
  const u = io();
  assert.equal(await starlarkCommand([], u.io), 2);
  assert.match(u.err.join(''), /usage: svc starlark FILE/);
  const v = io();
  assert.equal(await starlarkCommand([file('ok.star', 'def execute(c): return c\n'), '--ctx', '{bad'], v.io), 2);
  const w = io();
  assert.equal(await starlarkCommand([join(dir, 'missing.star')], w.io), 1);
});

test('--ctx keeps big integers exact', async () => {
  const t = io();
  const f = file('big.star', 'def execute(ctx):\n    return ctx["n"] + 1\n');
  assert.equal(await starlarkCommand([f, '--ctx', '{"n": 123456789012345678901234567890}'], t.io), 0);
  assert.equal(t.out.join('').trim(), '123456789012345678901234567891');
});

test('--ctx is made into the struct-like ctx of a step: attributes, indexes, case-insensitive headers, defaults', async () => {
  const t = io();
  const f = file(
    'attrs.star',
    'def execute(ctx):\n    return [ctx.request.body["tags"], ctx["request"]["body"]["tags"], ctx.steps.find_user["row"], ctx.request.headers["x-key"], ctx.request.method, ctx.request.path, ctx.auth, dir(ctx)]\n',
  );
  const code = await starlarkCommand(
    [f, '--ctx', '{"request": {"body": {"tags": ["a"]}, "headers": {"X-Key": "k"}}, "steps": {"find_user": {"row": {"id": 1}}}}'],
    t.io,
  );
  assert.equal(t.err.join(''), '');
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(t.out.join('')), [['a'], ['a'], { id: 1 }, 'k', 'GET', {}, null, ['auth', 'request', 'request_id', 'steps', 'timestamp_epoch']]);
});

test('the example scripts run from their README command lines', async () => {
  const t = io();
  const code = await starlarkCommand(['examples/validation/transform.star', '--ctx', '{"request": {"body": {"prefix": "t", "tags": [" A ", ""]}}}'], t.io);
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(t.out.join('')), { count: 1, tags: ['t:a'] });
  const u = io();
  assert.equal(await starlarkCommand(['examples/quickstart/catalogue.star', '--ctx', '{"request": {"path": {"sku": "AB-123"}}}'], u.io), 0);
  assert.deepEqual(JSON.parse(u.out.join('')), { sku: 'AB-123', name: 'Anvil', price_cents: 12900 });
});
