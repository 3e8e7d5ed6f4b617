/**
 * `svc init` (issue 36): the project it writes checks clean, is already in the canonical layout, and
 * its own test (which serves it with the built svc on an in-memory database and calls every
 * endpoint) passes; an existing file is never overwritten; usage errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureBuilt } from '../e2e/build.js';
import { ROOT } from '../paths.js';
import { svc } from './helpers.js';

const run = promisify(execFile);

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'svc-init-'));
}

test('svc init writes a project that checks clean, is formatted, and whose own test passes against it', { timeout: 120_000 }, async (t) => {
  const parent = await tempDir();
  t.after(() => rm(parent, { recursive: true, force: true }));
  const dir = join(parent, 'parts-store');
  const made = await svc(['init', dir]);
  assert.equal(made.code, 0, made.stderr);
  for (const file of ['main.hcl', 'items.hcl', 'docs.hcl', 'migrations/001_items.sql', 'tests/api.test.mjs', 'README.md', '.gitignore']) {
    assert.ok(made.stdout.includes(join(dir, file)), `${file} reported: ${made.stdout}`);
  }
  assert.match(await readFile(join(dir, 'main.hcl'), 'utf8'), /title {3}= "Parts store"/, 'the title from the directory name');

  const checked = await svc(['check', '-c', dir]);
  assert.equal(checked.code, 0, checked.stderr);
  assert.match(checked.stdout, /ok: 7 endpoints \(2 of them documentation\), 1 schema, 0 guards, 1 connection/);
  const formatted = await svc(['fmt', '--check', '-c', dir]);
  assert.equal(formatted.code, 0, `the scaffold is in the canonical layout: ${formatted.stdout}${formatted.stderr}`);

  ensureBuilt();
  // Without NODE_TEST_CONTEXT: inside a test, node --test would report to this runner, not print.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const { stdout } = await run(process.execPath, ['--test', '--test-reporter=tap'], {
    cwd: dir,
    env: { ...env, SVC_BIN: join(ROOT, 'bin/svc.js') },
    timeout: 90_000,
  });
  assert.match(stdout, /# pass 3\n# fail 0/);
  assert.ok(!(await readdir(dir)).includes('.data'), 'the test never touched the project database');
});

test('svc init refuses a directory that holds one of its files, and writes nothing', async (t) => {
  const dir = await tempDir();
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'main.hcl'), '# mine\n');
  await mkdir(join(dir, 'tests'));
  const made = await svc(['init', dir]);
  assert.equal(made.code, 1);
  assert.match(made.stderr, /already has main\.hcl; nothing was written/);
  assert.equal(await readFile(join(dir, 'main.hcl'), 'utf8'), '# mine\n');
  assert.deepEqual((await readdir(dir)).sort(), ['main.hcl', 'tests']);
});

test('svc init: usage errors', async () => {
  const two = await svc(['init', 'a', 'b']);
  assert.equal(two.code, 2);
  assert.match(two.stderr, /at most one directory/);
  const title = await svc(['init', '--title', 'a\nb', join(tmpdir(), 'never-written')]);
  assert.equal(title.code, 2);
});
