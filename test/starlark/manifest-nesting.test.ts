// Issue 15, class 5 through a manifest: `svc check` on deeply nested Starlark (a .star file with
// 500 brackets, an inline program with 3000 chained +) reports located diagnostics, fast, where it
// ended in "internal error" and a JS stack trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { svc } from '../cli/helpers.js';
import { sourceDir } from '../paths.js';

const dir = join(sourceDir(import.meta.url), 'fixtures/deep-nesting');

interface Diagnostic {
  code: string;
  summary: string;
  range: { filename: string; start: { line: number; column: number } };
}

test('manifest nesting: svc check reports each too deep program at its place', async () => {
  const started = performance.now();
  const r = await svc(['check', '-c', dir, '--diagnostics=json']);
  assert.ok(performance.now() - started < 5000);
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.stdout + r.stderr, /internal error|RangeError|Maximum call stack/);
  const { diagnostics } = JSON.parse(r.stdout) as { diagnostics: Diagnostic[] };
  assert.deepEqual(
    diagnostics.map((d) => ({ code: d.code, file: d.range.filename.replace(/^.*\//, ''), line: d.range.start.line, column: d.range.start.column })),
    [
      // the 101st level: `    return ` then 100 brackets (the body and the expression are levels too)
      { code: 'SVC_STEP_STARLARK_COMPILE_ERROR', file: 'deep.star', line: 3, column: 111 },
      // the 999th + of the heredoc's line (col 14 + 4 * 998 in the program, 8 more in the manifest)
      { code: 'SVC_STEP_STARLARK_COMPILE_ERROR', file: 'main.hcl', line: 18, column: 4014 },
    ],
  );
  assert.match(diagnostics[0]!.summary, /program nested too deeply \(more than 100 levels/);
  assert.match(diagnostics[1]!.summary, /expression nested too deeply \(more than 1000 operators/);
});
