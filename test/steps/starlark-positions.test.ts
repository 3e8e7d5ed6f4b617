// Issue 35: every position Starlark reports for an inline program (a heredoc or a quoted string in the
// manifest) is the manifest's own line and column: run-time backtraces in the log (on the event loop
// and on a worker), compile errors, a top level that fails at boot, a refused `load`, and positions
// quoted in messages. A program from `file = "x.star"` keeps naming that file's lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Diagnostic } from '../../src/diag/index.js';
import { buildServiceModel, compileService, loadServiceModel, type FailureResult } from '../../src/steps/index.js';
import { SLICE_STEPS } from '../../src/steps/starlark/slice.js';
import { serveManifest } from '../http/helpers.js';
import { ctx } from './helpers.js';

/** Thirty lines of other endpoints before the one under test, so that no program line is a manifest line by chance. */
const PADDING = Array.from({ length: 10 }, (_, i) => `endpoint "GET /p${i}" {\n  pipeline {\n    respond { body = { n = ${i} } }\n  }\n}`).join('\n');

function endpoint(body: string, path = '/t'): string {
  return `${PADDING}\n\nendpoint "GET ${path}" {\n  pipeline {\n    starlark "s" {\n${body}\n    }\n    respond { body = steps.s.result }\n  }\n}\n`;
}

/** The manifest line and column (1-based) where `needle` starts; it must occur once. */
function where(text: string, needle: string): { line: number; col: number } {
  const at = text.indexOf(needle);
  assert.ok(at >= 0 && text.indexOf(needle, at + 1) < 0, `"${needle}" occurs once in the manifest`);
  const before = text.slice(0, at);
  return { line: before.split('\n').length, col: at - before.lastIndexOf('\n') };
}

interface Frame {
  name: string;
  pos: { file: string; line: number; col: number } | null;
}

/** The frames the log line of the request's failure holds (outermost first). */
async function loggedFrames(manifest: string, path = '/t'): Promise<Frame[]> {
  const svc = await serveManifest(manifest);
  try {
    const res = await svc.app.inject({ method: 'GET', url: path });
    assert.equal(res.statusCode, 500);
    const line = svc.log.lines.find((l) => l.msg === 'request failed');
    assert.ok(line, 'the failure is logged');
    return (line.err as { callStack: Frame[] }).callStack;
  } finally {
    await svc.close();
  }
}

/** The error diagnostics of building and compiling a manifest (one file, api.hcl). */
function bootErrors(manifest: string): readonly Diagnostic[] {
  const built = buildServiceModel([{ filename: 'api.hcl', source: manifest }]);
  assert.deepEqual(
    built.diagnostics.filter((d) => d.severity === 'error').map((d) => d.summary),
    [],
  );
  return compileService(built.model!).diagnostics;
}

const FLUSH = `      source = <<-EOT
        def half(n):
            return n // 0

        def execute(ctx):
            x = 1
            return half(x) + 1
      EOT`;

test('a run-time error in a <<- heredoc is logged at the manifest lines of its frames (event loop)', async () => {
  const manifest = endpoint(FLUSH);
  assert.ok(where(manifest, 'def execute').line > 30);
  const frames = await loggedFrames(manifest);
  assert.deepEqual(
    frames.map((f) => [f.name, f.pos]),
    [
      ['execute', { file: 'api.hcl', ...where(manifest, '(x) + 1') }],
      ['half', { file: 'api.hcl', ...where(manifest, '// 0') }],
    ],
  );
});

test('a run-time error on a worker of the pool is logged at the manifest line too', async () => {
  const manifest = endpoint(`      source = <<-EOT
        def execute(ctx):
            n = 0
            for i in range(${SLICE_STEPS * 4}):
                n += i
            return n // (n - n)
      EOT`);
  const frames = await loggedFrames(manifest);
  assert.deepEqual(frames.at(-1)!.pos, { file: 'api.hcl', ...where(manifest, '// (n - n)') });
});

test('a <<EOT heredoc (no indentation stripped) and a quoted string are placed too', async () => {
  const plain = endpoint(`      source = <<EOT
def execute(ctx):
  return 1 // 0
EOT`);
  assert.deepEqual((await loggedFrames(plain)).at(-1)!.pos, { file: 'api.hcl', ...where(plain, '// 0') });
  const quoted = endpoint('      source = "def execute(ctx):\\n    return 1 // 0\\n"');
  assert.deepEqual((await loggedFrames(quoted)).at(-1)!.pos, { file: 'api.hcl', ...where(quoted, '// 0') });
});

test('a syntax error is a boot diagnostic at the manifest line and column', () => {
  const manifest = endpoint(`      source = <<-EOT
        def execute(ctx):
            x = 1
            return x +* 2
      EOT`);
  const [d, ...more] = bootErrors(manifest);
  assert.deepEqual(more, []);
  assert.match(d!.summary, /^Starlark: /);
  const at = where(manifest, '* 2');
  assert.deepEqual([d!.subject!.filename, d!.subject!.start.line, d!.subject!.start.column], ['api.hcl', at.line, at.col]);
});

test('a resolve error, and the position its message quotes, are the manifest lines', () => {
  const manifest = endpoint(`      source = <<-EOT
        LIMIT = 1
        LIMIT = 2

        def execute(ctx):
            return LIMIT
      EOT`);
  const [d] = bootErrors(manifest);
  const first = where(manifest, 'LIMIT = 1');
  const second = where(manifest, 'LIMIT = 2');
  assert.equal(d!.subject!.start.line, second.line);
  assert.equal(d!.subject!.start.column, second.col);
  assert.match(d!.summary, new RegExp(`declared at api\\.hcl:${first.line}:${first.col}$`));
});

test('a load() that cannot be served is a boot diagnostic at the load statement, its backtrace at the manifest line', () => {
  const manifest = endpoint(`      source = <<-EOT
        load("helpers.star", "clean")

        def execute(ctx):
            return clean(ctx)
      EOT`);
  const [d, ...more] = bootErrors(manifest);
  assert.deepEqual(more, []);
  assert.equal(d!.summary, 'Starlark: the program failed while loading');
  const at = where(manifest, '"helpers.star"');
  assert.deepEqual([d!.subject!.filename, d!.subject!.start.line, d!.subject!.start.column], ['api.hcl', at.line, at.col]);
  // An in-memory build reads no file (test/steps/starlark-load.test.ts loads from disk).
  assert.match(d!.detail!, new RegExp(`api\\.hcl:${at.line}:${at.col}: in <toplevel>\\nError: cannot load helpers.star: an in-memory build reads no files`));
});

test('a top level that fails at boot is reported at its manifest line', () => {
  const manifest = endpoint(`      source = <<-EOT
        RATE = 10 // 0

        def execute(ctx):
            return RATE
      EOT`);
  const [d] = bootErrors(manifest);
  const at = where(manifest, '// 0');
  assert.deepEqual([d!.subject!.start.line, d!.subject!.start.column], [at.line, at.col]);
});

test('a program in a .star file keeps naming its own lines (boot diagnostic and run-time frames)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-starlark-positions-'));
  try {
    const manifest = (file: string): string =>
      `${PADDING}\n\nendpoint "GET /t" {\n  pipeline {\n    starlark "s" {\n      file = "${file}"\n    }\n    respond { body = steps.s.result }\n  }\n}\n`;
    writeFileSync(join(dir, 'api.hcl'), manifest('broken.star'));
    writeFileSync(join(dir, 'broken.star'), 'def execute(ctx):\n    return 1 +* 2\n');
    const broken = await loadServiceModel(dir);
    const [d] = compileService(broken.model!).diagnostics;
    assert.deepEqual([d!.subject!.filename, d!.subject!.start.line, d!.subject!.start.column], [join(dir, 'broken.star'), 2, 15]);

    writeFileSync(join(dir, 'api.hcl'), manifest('failing.star'));
    writeFileSync(join(dir, 'failing.star'), '# a comment\n\ndef execute(ctx):\n    return 1 // 0\n');
    const failing = await loadServiceModel(dir);
    const compiled = compileService(failing.model!);
    assert.deepEqual(compiled.diagnostics, []);
    const out = compiled.endpoints.find((e) => e.path === '/t')!.run(ctx());
    assert.equal(out.kind, 'failure');
    const error = (out as FailureResult).error as { callStack: Frame[] };
    assert.deepEqual(error.callStack.at(-1)!.pos, { file: join(dir, 'failing.star'), line: 4, col: 14 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
