/**
 * Smoke test: every *.hcl file of the hcl specsuite (read in place from ../shared/conformance)
 * parses without throwing; the ones whose .t file expects diagnostics must produce them, with the
 * first expected diagnostic's range (line, column, byte) among ours, and the others none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseFile } from '../../src/hcl/index.js';
import { sourceDir } from '../paths.js';

const here = sourceDir(import.meta.url);
const suite = join(here, '../../../shared/conformance/hcl/specsuite/tests');

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (name.endsWith('.hcl')) out.push(full);
  }
  return out;
}

interface Expected {
  from: { line: number; column: number; byte: number };
  to: { line: number; column: number; byte: number };
}

/** The error ranges of a .t file's `diagnostics { error { from {...} to {...} } }` blocks. */
function expectedDiagnostics(tFile: string): Expected[] {
  if (!existsSync(tFile)) return [];
  const text = readFileSync(tFile, 'utf8');
  const out: Expected[] = [];
  const re =
    /from\s*\{\s*line\s*=\s*(\d+)\s*column\s*=\s*(\d+)\s*byte\s*=\s*(\d+)\s*\}\s*to\s*\{\s*line\s*=\s*(\d+)\s*column\s*=\s*(\d+)\s*byte\s*=\s*(\d+)\s*\}/g;
  for (const m of text.matchAll(re)) {
    const n = m.slice(1).map(Number);
    out.push({ from: { line: n[0]!, column: n[1]!, byte: n[2]! }, to: { line: n[3]!, column: n[4]!, byte: n[5]! } });
  }
  return out;
}

const files = existsSync(suite) ? walk(suite) : [];

test('the specsuite is present', { skip: files.length === 0 ? 'specsuite not found' : false }, () => {
  assert.ok(files.length > 0);
});

for (const file of files) {
  const name = relative(suite, file);
  test(`specsuite ${name}`, () => {
    const { file: f, diagnostics } = parseFile(readFileSync(file, 'utf8'), name);
    assert.equal(f.body.kind, 'Body');
    const expected = expectedDiagnostics(file.replace(/\.hcl$/, '.t'));
    // `unexpected.t` is a decoder error (an attribute the spec does not allow), not a syntax error.
    const syntaxExpected = name.includes('attributes/unexpected') ? [] : expected;
    if (syntaxExpected.length === 0) {
      assert.deepEqual(
        diagnostics.map((d) => d.summary),
        [],
      );
      return;
    }
    const got = diagnostics.map((d) => ({ from: d.subject!.start, to: d.subject!.end }));
    for (const e of syntaxExpected)
      assert.deepEqual(
        got.find((g) => g.from.byte === e.from.byte),
        e,
        `missing ${JSON.stringify(e)}`,
      );
    assert.equal(diagnostics.length, syntaxExpected.length, diagnostics.map((d) => d.summary).join('; '));
  });
}
