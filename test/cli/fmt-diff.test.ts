/**
 * The unified diff of `svc fmt --diff`: exact output on small cases, and seeded random pairs of texts
 * whose diff, applied as `patch` applies it, gives back the second text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unifiedDiff } from '../../src/cli/fmt-diff.js';

test('hunks keep three lines of context, and changes close together share one', () => {
  const before = ['a=1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', 'b=1', 'c=1', ''].join('\n');
  const after = before.replace('a=1', 'a = 1').replace('b=1', 'b = 1').replace('c=1', 'c = 1');
  assert.equal(
    unifiedDiff(before, after, 'f.hcl'),
    [
      '--- f.hcl',
      '+++ f.hcl (formatted)',
      '@@ -1,4 +1,4 @@',
      '-a=1',
      '+a = 1',
      ' 2',
      ' 3',
      ' 4',
      '@@ -10,5 +10,5 @@',
      ' 10',
      ' 11',
      ' 12',
      '-b=1',
      '-c=1',
      '+b = 1',
      '+c = 1',
      '',
    ].join('\n'),
  );
  assert.equal(unifiedDiff(before, before, 'f.hcl'), '');
});

test('a last line without a newline is marked', () => {
  assert.equal(unifiedDiff('a=1', 'a = 1\n', 'f'), '--- f\n+++ f (formatted)\n@@ -1 +1 @@\n-a=1\n\\ No newline at end of file\n+a = 1\n');
});

/**
 * Applies a unified diff as `patch` would, strictly: every hunk at the line its header names, every
 * context and removed line equal to the original's. Returns the patched text.
 */
function applyDiff(original: string, diff: string): string {
  const split = (text: string): string[] => {
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    else lines[lines.length - 1] += '\n\\ No newline at end of file';
    return lines;
  };
  const old = original === '' ? [] : split(original);
  const rows = diff.split('\n').slice(2, -1);
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < rows.length; ) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(rows[i]!);
    assert.ok(header, `hunk header expected: ${rows[i]}`);
    const count = header[2] === undefined ? 1 : Number(header[2]);
    const start = count === 0 ? Number(header[1]) : Number(header[1]) - 1;
    assert.ok(start >= at, 'hunks in order');
    out.push(...old.slice(at, start));
    at = start;
    for (i++; i < rows.length && !rows[i]!.startsWith('@@'); i++) {
      let row = rows[i]!;
      // A "no newline" marker belongs to the line before it.
      if (rows[i + 1]?.startsWith('\\ ')) row += '\n' + rows[++i];
      const line = row.slice(1);
      if (row[0] === '+') out.push(line);
      else {
        assert.equal(old[at], line, `line ${at + 1}`);
        if (row[0] === ' ') out.push(line);
        at++;
      }
    }
  }
  out.push(...old.slice(at));
  const last = out.length - 1;
  const noNewline = last >= 0 && out[last]!.endsWith('\n\\ No newline at end of file');
  if (noNewline) out[last] = out[last]!.slice(0, -'\n\\ No newline at end of file'.length);
  return out.join('\n') + (out.length > 0 && !noNewline ? '\n' : '');
}

test('applying the diff of random pairs of texts gives the second text', () => {
  let seed = 20261124;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const text = (): string => Array.from({ length: rnd(40) }, () => `l${rnd(6)}`).join('\n') + (rnd(4) ? '\n' : '');
  let compared = 0;
  for (let i = 0; i < 300; i++) {
    const a = text();
    const b = rnd(3) ? a.replace(/l\d/g, (m) => (rnd(6) ? m : rnd(2) ? `${m} changed` : `${m}\nnew`)) : text();
    if (a === b) continue;
    assert.equal(applyDiff(a, unifiedDiff(a, b, 'a')), b, `case ${i}: ${JSON.stringify(a)} -> ${JSON.stringify(b)}`);
    compared++;
  }
  assert.ok(compared > 200);
});
