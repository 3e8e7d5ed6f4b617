/** `svc starlark`'s command line goes through the shared strict parser (src/cli/args.ts). */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { starlarkCommand } from '../../src/cli/starlark.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await starlarkCommand(args, {
    stdout: { write: (s: string) => void out.push(s) },
    stderr: { write: (s: string) => void err.push(s) },
    env: process.env,
    cwd: process.cwd(),
  });
  return { code, out: out.join(''), err: err.join('') };
}

const dir = mkdtempSync(join(tmpdir(), 'svc-starlark-args-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const loop = join(dir, 'loop.star');
writeFileSync(loop, 'def execute(ctx):\n    n = 0\n    for i in range(1000):\n        n += i\n    return n\n');

test('every spelling of the shared parser is accepted', async () => {
  for (const args of [
    [loop, '--ctx', '{}'],
    [loop, '--ctx={}'],
    ['--ctx', '{}', loop],
    [loop, '--max-steps=100000', '--ctx', '{}'],
  ]) {
    const r = await run(args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
    assert.equal(r.out, '499500\n');
  }
});

test('unknown flags, missing values, extra files and bad numbers are usage errors (exit 2)', async () => {
  const cases: [string[], RegExp][] = [
    [[loop, '--bogus'], /svc starlark: unknown flag --bogus\nusage: svc starlark FILE/],
    [[loop, '-x'], /svc starlark: unknown flag -x/],
    [[loop, '--ctx'], /svc starlark: flag --ctx needs a value/],
    [[loop, loop], /svc starlark: unexpected argument/],
    [[loop, '--max-steps', 'many'], /--max-steps must be a whole number above 0, not "many"/],
    [[loop, '--timeout-ms', '0'], /--timeout-ms must be a whole number above 0, not "0"/],
  ];
  for (const [args, message] of cases) {
    const r = await run(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.err, message);
  }
});

test('--max-steps bounds the run', async () => {
  const r = await run([loop, '--ctx', '{}', '--max-steps', '50']);
  assert.equal(r.code, 1);
  assert.notEqual(r.err, '');
});

test('-h prints the usage', async () => {
  const r = await run(['-h']);
  assert.equal(r.code, 0);
  assert.match(r.out, /^usage: svc starlark FILE/);
});
