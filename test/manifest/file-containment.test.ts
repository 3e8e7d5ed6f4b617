/**
 * Issue 15, class 3: files were contained by the text of their path and read whole. Each case copies
 * fixtures/files (a manifest with a Starlark step reading `scripts/run.star`, and one reading
 * `scripts/..helper.star`), puts the reproduction in place of `scripts/run.star` or of a `*.hcl`
 * file, and loads it as `svc check` and `svc serve` do: every case is a diagnostic, reached at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMigrations } from '../../src/connectors/postgres/migrations.js';
import { MAX_MANIFEST_FILE_BYTES } from '../../src/manifest/index.js';
import { loadServiceModel } from '../../src/steps/index.js';
import { sourceDir } from '../paths.js';

const FIXTURE = join(sourceDir(import.meta.url), 'fixtures', 'files');
const SCRIPT = join('scripts', 'run.star');
/** Generous for a loaded machine; reading /dev/zero whole never ends. */
const FAST_MS = 5000;
const posix = process.platform !== 'win32';

/** A copy of the fixture in a new temporary directory, removed after the test. */
function copy(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-files-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

/** A directory outside the manifest directory, with a valid Starlark program in it. */
function outsideDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-outside-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'run.star'), 'def execute(ctx):\n    return "outside"\n');
  return dir;
}

async function load(dir: string): Promise<{ diagnostics: [string, string][]; ok: boolean; ms: number }> {
  const start = performance.now();
  const r = await loadServiceModel(dir);
  const ms = performance.now() - start;
  return { diagnostics: r.diagnostics.map((d) => [d.summary, (d.detail ?? '').split(dir).join('<dir>')]), ok: r.model !== undefined, ms };
}

test('the fixture as it is loads: `..helper.star` is a name inside the directory, not a way out of it', async (t) => {
  const dir = copy(t);
  const r = await load(dir);
  assert.deepEqual(r.diagnostics, []);
  assert.ok(r.ok);
});

test('a Starlark file that is a symlink to /dev/zero is a diagnostic, not a read without end', { skip: !posix }, async (t) => {
  const dir = copy(t);
  rmSync(join(dir, SCRIPT));
  symlinkSync('/dev/zero', join(dir, SCRIPT));
  const r = await load(dir);
  assert.ok(r.ms < FAST_MS, `took ${r.ms} ms`);
  // Outside the directory first; a device inside it meets the regular-file check (the named pipe below).
  assert.deepEqual(r.diagnostics, [
    [
      'File outside the manifest directory',
      '"scripts/run.star" (<dir>/scripts/run.star) leads through a symbolic link to /dev/zero, outside the manifest directory <dir>.',
    ],
  ]);
});

test('a Starlark file that is a named pipe is a diagnostic, not a boot waiting for a writer', { skip: !posix }, async (t) => {
  const dir = copy(t);
  rmSync(join(dir, SCRIPT));
  execFileSync('mkfifo', [join(dir, SCRIPT)]);
  const r = await load(dir);
  assert.deepEqual(r.diagnostics, [['Cannot read file', '"scripts/run.star" (<dir>/scripts/run.star) is a named pipe, not a regular file.']]);
});

test('a symlink to a file outside the manifest directory is refused', async (t) => {
  const dir = copy(t);
  const outside = outsideDir(t);
  rmSync(join(dir, SCRIPT));
  symlinkSync(join(outside, 'run.star'), join(dir, SCRIPT));
  const r = await load(dir);
  assert.equal(r.ok, false);
  assert.deepEqual(r.diagnostics, [
    [
      'File outside the manifest directory',
      `"scripts/run.star" (<dir>/scripts/run.star) leads through a symbolic link to ${join(outside, 'run.star')}, outside the manifest directory <dir>.`,
    ],
  ]);
});

test('a symlinked directory leading outside is refused too, and a relative link that stays inside is followed', async (t) => {
  const dir = copy(t);
  const outside = outsideDir(t);
  writeFileSync(join(outside, '..helper.star'), 'def execute(ctx):\n    return "outside"\n');
  rmSync(join(dir, 'scripts'), { recursive: true });
  symlinkSync(outside, join(dir, 'scripts'));
  const r = await load(dir);
  assert.deepEqual(
    r.diagnostics.map(([summary]) => summary),
    ['File outside the manifest directory', 'File outside the manifest directory'],
  );

  const inside = copy(t);
  mkdirSync(join(inside, 'lib'));
  writeFileSync(join(inside, 'lib', 'real.star'), 'def execute(ctx):\n    return "linked"\n');
  rmSync(join(inside, SCRIPT));
  symlinkSync(join('..', 'lib', 'real.star'), join(inside, SCRIPT));
  assert.deepEqual((await load(inside)).diagnostics, []);
});

test('a Starlark file over the bound is a diagnostic naming the bound', async (t) => {
  const dir = copy(t);
  // Sparse: the bound plus one byte costs no disk.
  truncateSync(join(dir, SCRIPT), MAX_MANIFEST_FILE_BYTES + 1);
  const r = await load(dir);
  assert.deepEqual(r.diagnostics, [['File too large', '"scripts/run.star" (<dir>/scripts/run.star) is larger than 16 MiB, the most svc reads of one file.']]);
});

test('a manifest file that is a symlink to /dev/zero, or over the bound, is a diagnostic', { skip: !posix }, async (t) => {
  const dir = copy(t);
  symlinkSync('/dev/zero', join(dir, 'zero.hcl'));
  writeFileSync(join(dir, 'huge.hcl'), '');
  truncateSync(join(dir, 'huge.hcl'), MAX_MANIFEST_FILE_BYTES + 1);
  const r = await load(dir);
  assert.ok(r.ms < FAST_MS, `took ${r.ms} ms`);
  assert.equal(r.ok, false);
  assert.deepEqual(r.diagnostics, [
    ['File too large', '<dir>/huge.hcl is larger than 16 MiB, the most svc reads of one file.'],
    ['Cannot read manifest file', '<dir>/zero.hcl is a character device, not a regular file.'],
  ]);
});

test('a migration over its bound is a boot error naming the file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-migrations-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, '001_ok.sql'), 'SELECT 1;');
  writeFileSync(join(dir, '002_huge.sql'), '');
  truncateSync(join(dir, '002_huge.sql'), 64 * 1024 * 1024 + 1);
  await assert.rejects(readMigrations(dir), {
    name: 'MigrationError',
    message: `migration ${join(dir, '002_huge.sql')} is larger than 64 MiB, the most svc reads of one file`,
  });
});
