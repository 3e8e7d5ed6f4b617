import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderDiagnostic, renderDiagnostics, didYouMean, editDistance, Diagnostics } from '../../src/diag/index.js';

const source = 'endpoint "GET /x" {\n  pipeline {\n    colour = "red"\n  }\n}\n';

test('renders summary, location, block path, snippet with the span marked, and a suggestion', () => {
  const text = renderDiagnostic(
    {
      severity: 'error',
      summary: 'Unsupported argument',
      detail: 'An argument named "colour" is not expected here.',
      subject: { filename: 'api.hcl', start: { line: 3, column: 5, byte: 36 }, end: { line: 3, column: 11, byte: 42 } },
      path: ['endpoint "GET /x"', 'pipeline'],
      suggestion: 'color',
    },
    new Map([['api.hcl', source]]),
  );
  assert.equal(
    text,
    [
      'Error: Unsupported argument',
      '',
      '  on api.hcl line 3, in endpoint "GET /x" > pipeline:',
      '   3:     colour = "red"',
      '          ^^^^^^',
      '',
      'An argument named "colour" is not expected here. Did you mean "color"?',
      '',
    ].join('\n'),
  );
});

test('did-you-mean picks the closest candidate within distance 2, case-insensitively', () => {
  assert.equal(didYouMean('pipelin', ['pipeline', 'request']), 'pipeline');
  assert.equal(didYouMean('REQUEST', ['pipeline', 'request']), 'request');
  assert.equal(didYouMean('zzzzzz', ['pipeline', 'request']), undefined);
  assert.equal(editDistance('kitten', 'sitting'), 3);
});

test('Diagnostics collects and reports errors', () => {
  const d = new Diagnostics();
  assert.equal(d.hasErrors, false);
  d.add({ severity: 'warning', summary: 'w' });
  assert.equal(d.hasErrors, false);
  d.error('e');
  assert.equal(d.hasErrors, true);
  assert.equal(d.length, 2);
});

test('rendering many diagnostics of a big file is linear (the file is split into lines once)', () => {
  const n = 40000;
  const big = 'a = 1\n'.repeat(n);
  const other = 'x\ny = 2\n';
  const diags = Array.from({ length: n }, (_, i) => ({
    severity: 'error' as const,
    summary: 'Attribute redefined',
    subject: { filename: i % 1000 === 0 ? 'other.hcl' : 'big.hcl', start: { line: 2, column: 1, byte: 6 }, end: { line: 2, column: 2, byte: 7 } },
  }));
  const sources = new Map([
    ['big.hcl', big],
    ['other.hcl', other],
  ]);
  const t = performance.now();
  const out = renderDiagnostics(diags, sources);
  assert.ok(performance.now() - t < 5000, `took ${performance.now() - t} ms`); // quadratic: about a minute
  // alternating files still show each file's own line
  assert.ok(out.includes('   2: y = 2\n'));
  assert.ok(out.includes('   2: a = 1\n'));
});
