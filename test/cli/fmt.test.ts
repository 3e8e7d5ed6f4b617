/**
 * `svc fmt` end to end, in-process (test/cli/helpers.ts), on files in temporary directories: what is
 * rewritten and what is not, `--check`, `--diff`, standard input, files that do not parse or cannot
 * be read, and how a file is replaced (atomically, keeping its mode and its symbolic link). The
 * examples are held canonical here too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmtCommand } from '../../src/cli/fmt.js';
import { svc } from './helpers.js';
import { ROOT as root } from '../paths.js';

const UGLY = 'endpoint "GET /x" {\nresponse {\nstatus=200\nbody_text = "hi" # greeting\n}\n}\nserver {\nport=8080\n}\n';
const CANONICAL = 'endpoint "GET /x" {\n  response {\n    status    = 200\n    body_text = "hi" # greeting\n  }\n}\n\nserver {\n  port = 8080\n}\n';

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fmt-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('every example is canonical: svc fmt --check -c examples/<each> exits 0 and lists nothing', async () => {
  const examples = readdirSync(join(root, 'examples')).filter((n) => statSync(join(root, 'examples', n)).isDirectory());
  assert.ok(examples.length >= 4);
  for (const name of examples) {
    const r = await svc(['fmt', '--check', '-c', join(root, 'examples', name)]);
    assert.deepEqual({ code: r.code, stdout: r.stdout, stderr: r.stderr }, { code: 0, stdout: '', stderr: '' }, `examples/${name}`);
  }
});

test('-c DIR rewrites the files that change, prints their names, and leaves canonical ones alone', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'sub'));
  mkdirSync(join(dir, '.hidden'));
  writeFileSync(join(dir, 'api.hcl'), UGLY);
  writeFileSync(join(dir, 'sub', 'ok.hcl'), CANONICAL);
  writeFileSync(join(dir, '.hidden', 'skipped.hcl'), UGLY);
  writeFileSync(join(dir, 'notes.txt'), 'a=1\n');
  const untouched = statSync(join(dir, 'sub', 'ok.hcl'));

  const r = await svc(['fmt', '-c', dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `${join(dir, 'api.hcl')}\n`);
  assert.equal(readFileSync(join(dir, 'api.hcl'), 'utf8'), CANONICAL);
  const after = statSync(join(dir, 'sub', 'ok.hcl'));
  assert.equal(after.ino, untouched.ino, 'a canonical file is not rewritten');
  assert.equal(after.mtimeMs, untouched.mtimeMs);
  // As `svc serve` discovers files: dot-directories and other extensions are not manifest files.
  assert.equal(readFileSync(join(dir, '.hidden', 'skipped.hcl'), 'utf8'), UGLY);
  assert.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'a=1\n');
  // No temporary file is left behind.
  assert.deepEqual(readdirSync(dir).sort(), ['.hidden', 'api.hcl', 'notes.txt', 'sub']);

  const again = await svc(['fmt', '-c', dir]);
  assert.deepEqual([again.code, again.stdout], [0, '']);
});

test('--check lists the files that are not canonical, exits 1, and rewrites nothing', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'a.hcl'), UGLY);
  writeFileSync(join(dir, 'b.hcl'), CANONICAL);
  writeFileSync(join(dir, 'c.hcl'), 'x=1\n');
  const r = await svc(['fmt', '--check', '-c', dir]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, `${join(dir, 'a.hcl')}\n${join(dir, 'c.hcl')}\n`);
  assert.equal(r.stderr, '');
  assert.equal(readFileSync(join(dir, 'a.hcl'), 'utf8'), UGLY);
  assert.equal(readFileSync(join(dir, 'c.hcl'), 'utf8'), 'x=1\n');
});

test('FILE arguments format just those files; a directory argument is walked like -c', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'd'));
  writeFileSync(join(dir, 'a.hcl'), 'a=1\n');
  writeFileSync(join(dir, 'b.hcl'), 'b=1\n');
  writeFileSync(join(dir, 'other.conf'), 'c=1\n');
  writeFileSync(join(dir, 'd', 'e.hcl'), 'e=1\n');
  const r = await svc(['fmt', join(dir, 'a.hcl'), join(dir, 'other.conf'), join(dir, 'd')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, [join(dir, 'a.hcl'), join(dir, 'other.conf'), join(dir, 'd', 'e.hcl')].join('\n') + '\n');
  assert.equal(readFileSync(join(dir, 'a.hcl'), 'utf8'), 'a = 1\n');
  assert.equal(readFileSync(join(dir, 'other.conf'), 'utf8'), 'c = 1\n');
  assert.equal(readFileSync(join(dir, 'd', 'e.hcl'), 'utf8'), 'e = 1\n');
  assert.equal(readFileSync(join(dir, 'b.hcl'), 'utf8'), 'b=1\n', 'a file not named is not touched');
});

test('a file that does not parse: its diagnostics with line, column and snippet, the file untouched, exit 1; the others are still formatted', async (t) => {
  const dir = tempDir(t);
  const bad = 'a {\n  b = \n}\n';
  writeFileSync(join(dir, 'bad.hcl'), bad);
  writeFileSync(join(dir, 'good.hcl'), 'g=1\n');
  const r = await svc(['fmt', '-c', dir]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, `${join(dir, 'good.hcl')}\n`);
  assert.match(r.stderr, /^Error: Invalid expression\n\n {2}on .*bad\.hcl line 2:\n {3}2: {3}b = \n/);
  assert.equal(readFileSync(join(dir, 'bad.hcl'), 'utf8'), bad);
  assert.equal(readFileSync(join(dir, 'good.hcl'), 'utf8'), 'g = 1\n');

  const json = await svc(['fmt', '--check', '--diagnostics=json', join(dir, 'bad.hcl')]);
  assert.equal(json.code, 1);
  const parsed = JSON.parse(json.stderr) as { diagnostics: { code: string; range: { filename: string; start: { line: number; column: number } } }[] };
  assert.equal(parsed.diagnostics[0]!.code, 'SVC_HCL_INVALID_EXPRESSION');
  assert.equal(parsed.diagnostics[0]!.range.filename, join(dir, 'bad.hcl'));
  assert.deepEqual([parsed.diagnostics[0]!.range.start.line, parsed.diagnostics[0]!.range.start.column], [2, 7]);
});

test('files that cannot be read are reported, and nothing is written', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'latin1.hcl'), Buffer.from([0x61, 0x3d, 0x22, 0xe9, 0x22, 0x0a]));
  const r = await svc(['fmt', join(dir, 'latin1.hcl'), join(dir, 'missing.hcl')]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /Error: Invalid file encoding\n\n.*latin1\.hcl is not UTF-8 text/);
  assert.match(r.stderr, /Error: Cannot read manifest file\n\n.*missing\.hcl: ENOENT/);
  assert.deepEqual(readFileSync(join(dir, 'latin1.hcl')), Buffer.from([0x61, 0x3d, 0x22, 0xe9, 0x22, 0x0a]));

  const none = await svc(['fmt', '-c', join(dir, 'nowhere')]);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /Error: Cannot read manifest directory/);
});

test('a rewritten file keeps its permissions, and a symbolic link stays a link to the rewritten file', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'real'));
  writeFileSync(join(dir, 'real', 'target.hcl'), 'a=1\n');
  chmodSync(join(dir, 'real', 'target.hcl'), 0o640);
  mkdirSync(join(dir, 'manifest'));
  symlinkSync(join(dir, 'real', 'target.hcl'), join(dir, 'manifest', 'link.hcl'));
  const r = await svc(['fmt', '-c', join(dir, 'manifest')]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(lstatSync(join(dir, 'manifest', 'link.hcl')).isSymbolicLink());
  assert.equal(readFileSync(join(dir, 'real', 'target.hcl'), 'utf8'), 'a = 1\n');
  assert.equal(statSync(join(dir, 'real', 'target.hcl')).mode & 0o777, 0o640);
  assert.deepEqual(readdirSync(join(dir, 'real')), ['target.hcl']);
});

test('--diff prints a unified diff of each change, after the file name', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'a.hcl'), 'a=1\nbb = 2\n');
  const file = join(dir, 'a.hcl');
  const r = await svc(['fmt', '--check', '--diff', file]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, `${file}\n--- ${file}\n+++ ${file} (formatted)\n@@ -1,2 +1,2 @@\n-a=1\n+a  = 1\n bb = 2\n`);
  assert.equal(readFileSync(file, 'utf8'), 'a=1\nbb = 2\n');
  const w = await svc(['fmt', '--diff', file]);
  assert.equal(w.code, 0);
  assert.equal(w.stdout, r.stdout);
  assert.equal(readFileSync(file, 'utf8'), 'a  = 1\nbb = 2\n');
});

test('- formats standard input to standard output', async () => {
  const run = async (args: string[], input: string) => {
    let stdout = '';
    let stderr = '';
    const io = { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, env: {}, cwd: process.cwd() };
    const code = await fmtCommand(args, io, async () => Buffer.from(input));
    return { code, stdout, stderr };
  };
  assert.deepEqual(await run(['-'], 'b{c=1}'), { code: 0, stdout: 'b { c = 1 }\n', stderr: '' });
  assert.deepEqual(await run(['-'], 'b { c = 1 }\n'), { code: 0, stdout: 'b { c = 1 }\n', stderr: '' });
  assert.deepEqual(await run(['--check', '-'], 'b{c=1}'), { code: 1, stdout: '<stdin>\n', stderr: '' });
  assert.deepEqual(await run(['--check', '-'], 'b { c = 1 }\n'), { code: 0, stdout: '', stderr: '' });
  const bad = await run(['-'], 'a = [\n');
  assert.equal(bad.code, 1);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /^Error: Missing expression\n\n {2}on <stdin> line 2:/);
});

test('usage errors: nothing to format, - with other files, an unknown flag', async () => {
  for (const args of [['fmt'], ['fmt', '-', 'a.hcl'], ['fmt', '-c', '.', '-'], ['fmt', '--write'], ['fmt', '--diagnostics=xml', 'a.hcl']]) {
    const r = await svc(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, /^svc fmt: .*\n\nUsage: svc fmt/, args.join(' '));
  }
});
