/** `svc check`: exit codes, rendered diagnostics with the source snippet, JSON output, OK summary. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCommand } from '../../src/cli/check.js';
import { ROOT, sourceDir } from '../paths.js';

/** Every block of the language, including step kinds this version cannot serve yet. */
const reference = join(sourceDir(import.meta.url), 'fixtures', 'good');
/** A manifest this version serves completely. */
const servable = join(ROOT, 'examples', 'validation');

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await checkCommand(args, {
    stdout: { write: (s: string) => void (out += s) },
    stderr: { write: (s: string) => void (err += s) },
    env: process.env,
    cwd: process.cwd(),
  });
  return { code, out, err };
}

function manifest(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-check-'));
  writeFileSync(join(dir, 'api.hcl'), text);
  return dir;
}

const BAD = `endpoint "GET /x" {
  pipeline {
    respond {
      colour = "red"
      body   = steps.nope.row
    }
  }
}
`;

test('a clean manifest: exit 0 and a one-line summary', async () => {
  const r = await run(['-c', servable]);
  assert.equal(r.code, 0);
  assert.equal(r.err, '');
  assert.equal(r.out, 'ok: 4 endpoints, 1 schema, 0 guards, 0 connections\n');
});

test('the reference manifest, a redoc page and a spec endpoint among its endpoints, passes check', async () => {
  const r = await run(['-c', reference]);
  assert.equal(r.err, '');
  assert.equal(r.code, 0);
  assert.equal(r.out, 'ok: 15 endpoints (2 of them documentation), 2 schemas, 3 guards, 2 connections\n');
});

test('a bad manifest: exit 1, every diagnostic rendered with location, block path and source line', async (t) => {
  const dir = manifest(BAD);
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const r = await run(['-c', dir]);
  assert.equal(r.code, 1);
  assert.equal(r.out, '');
  const file = join(dir, 'api.hcl');
  assert.match(r.err, /^Error: Unsupported argument\n\n/);
  assert.ok(r.err.includes(`  on ${file} line 4, in endpoint "GET /x" > pipeline > respond:\n   4:       colour = "red"\n            ^^^^^^\n`), r.err);
  assert.ok(r.err.includes('Error: Reference to undeclared step'), r.err);
  assert.ok(r.err.includes(`  on ${file} line 5, in endpoint "GET /x" > pipeline > respond:`), r.err);
  assert.ok(r.err.endsWith(`2 errors in ${dir}\n`), r.err);
  assert.ok(!/\n\s+at /.test(r.err), 'no stack trace');
});

test('--diagnostics=json prints one JSON document on stdout', async (t) => {
  const dir = manifest(BAD);
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const r = await run(['-c', dir, '--diagnostics=json']);
  assert.equal(r.code, 1);
  assert.equal(r.err, '');
  const doc = JSON.parse(r.out);
  assert.equal(doc.ok, false);
  assert.equal(doc.errors, 2);
  assert.deepEqual(
    doc.diagnostics.map((d: { summary: string; range: { start: { line: number; column: number } }; path: string[] }) => [
      d.summary,
      d.range.start.line,
      d.range.start.column,
      d.path.join(' > '),
    ]),
    [
      ['Unsupported argument', 4, 7, 'endpoint "GET /x" > pipeline > respond'],
      ['Reference to undeclared step', 5, 16, 'endpoint "GET /x" > pipeline > respond'],
    ],
  );
  const ok = await run(['--diagnostics', 'json', '-c', servable]);
  assert.equal(ok.code, 0);
  assert.deepEqual(JSON.parse(ok.out).summary, { endpoints: 4, documentation_endpoints: 0, schemas: 1, guards: 0, connections: 0 });
});

test('a syntax error is a diagnostic like any other', async (t) => {
  const dir = manifest('endpoint "GET /x" {\n  pipeline {\n    respond {\n      body = {\n  }\n');
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const r = await run(['-c', dir]);
  assert.equal(r.code, 1);
  assert.match(r.err, /^Error: /);
  assert.ok(!/\n\s+at /.test(r.err));
});

test('command-line mistakes: usage on stderr and exit 2; a missing directory exits 1', async () => {
  const none = await run([]);
  assert.equal(none.code, 2);
  assert.match(none.err, /missing -c <manifest_dir>\nusage: svc check/);
  assert.equal((await run(['-c', servable, '--diagnostics=xml'])).code, 2);
  assert.equal((await run(['-c', servable, '--frobnicate'])).code, 2);
  const missing = await run(['-c', '/nonexistent/svc']);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /^Error: Cannot read manifest directory/);
  const help = await run(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.out, /^usage: svc check/);
});

test('the spellings of the shared argument parser (src/cli/args.ts) are accepted; stray words are not', async () => {
  for (const args of [
    ['-c', servable],
    ['--config', servable],
    [`--config=${servable}`],
    [`-c=${servable}`],
    [`-c${servable}`],
    ['-c', servable, '--diagnostics', 'text'],
  ]) {
    const r = await run(args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
  }
  const json = await run(['--diagnostics', 'json', '-c', servable]);
  assert.equal(JSON.parse(json.out).ok, true);
  const stray = await run(['-c', servable, 'extra']);
  assert.equal(stray.code, 2);
  assert.match(stray.err, /^svc check: unknown argument "extra"\nusage: svc check/);
  const noValue = await run(['-c']);
  assert.equal(noValue.code, 2);
  assert.match(noValue.err, /^svc check: flag -c needs a value\n/);
});
