/**
 * Annotated fixtures of bad input: test/hcl/fixtures/bad/*.hcl.
 *
 * Annotation format. Expected diagnostics are written as comments in the fixture itself:
 *
 *     a = 1 2          # error: Missing newline after argument
 *     b = "x", c = 1   # error@9: Unexpected comma after argument
 *     e = "\x \y"      # error@7: Invalid escape sequence # error@10: Invalid escape sequence
 *     # error-line 12@3: Unterminated template string
 *
 * - `# error: <summary>` on a line: an error whose subject starts on that line, with that summary.
 * - `# error@<col>: <summary>`: the same, and the subject starts at that column (1-based, in code points).
 * - Several markers may follow each other on one line.
 * - `# error-line <line>[@<col>]: <summary>` on a line of its own, for a position that cannot carry a
 *   comment (inside a heredoc, say).
 * - In place of a summary, the diagnostic's code (`# error: SVC_HCL_UNTERMINATED_STRING`; see src/diag/codes.ts).
 *
 * Markers are found by text, wherever they are (an annotation inside an unterminated string still
 * counts). Every expected diagnostic must be reported, and no unexpected error may be.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { codeOf } from '../../src/diag/index.js';
import { parseFile } from '../../src/hcl/index.js';
import { sourceDir } from '../paths.js';

const dir = join(sourceDir(import.meta.url), 'fixtures/bad');

interface Expectation {
  line: number;
  column?: number;
  summary: string;
}

export function expectations(src: string): Expectation[] {
  const out: Expectation[] = [];
  const lines = src.split('\n');
  lines.forEach((text, i) => {
    const explicit = /#\s*error-line\s+(\d+)(?:@(\d+))?:\s*(.+?)\s*$/.exec(text);
    if (explicit) {
      out.push({ line: Number(explicit[1]), ...(explicit[2] ? { column: Number(explicit[2]) } : {}), summary: explicit[3]! });
      return;
    }
    for (const m of text.matchAll(/#\s*error(?:@(\d+))?:\s*(.+?)\s*(?=#\s*error|$)/g)) {
      out.push({ line: i + 1, ...(m[1] ? { column: Number(m[1]) } : {}), summary: m[2]! });
    }
  });
  return out;
}

const fixtures = readdirSync(dir)
  .filter((n) => n.endsWith('.hcl'))
  .sort();

test('there are bad fixtures', () => {
  assert.ok(fixtures.length >= 5);
});

for (const name of fixtures) {
  test(`fixture ${name}`, () => {
    const src = readFileSync(join(dir, name), 'utf8');
    const expected = expectations(src);
    assert.ok(expected.length > 0, 'a bad fixture must annotate at least one error');
    const { diagnostics } = parseFile(src, name);
    const got = diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => ({ line: d.subject!.start.line, column: d.subject!.start.column, summary: d.summary, code: codeOf(d), detail: d.detail }));
    const unmatched = [...got];
    const missing: Expectation[] = [];
    for (const e of expected) {
      const i = unmatched.findIndex(
        (g) => g.line === e.line && (g.summary === e.summary || g.code === e.summary) && (e.column === undefined || g.column === e.column),
      );
      if (i < 0) missing.push(e);
      else unmatched.splice(i, 1);
    }
    const fmt = (x: { line: number; column?: number; summary: string }) => `${x.line}${x.column ? `@${x.column}` : ''}: ${x.summary}`;
    assert.deepEqual({ missing: missing.map(fmt), unexpected: unmatched.map((u) => `${fmt(u)} (${u.detail})`) }, { missing: [], unexpected: [] });
  });
}
