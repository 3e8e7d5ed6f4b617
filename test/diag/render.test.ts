import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderDiagnostic, didYouMean, editDistance, Diagnostics } from '../../src/diag/index.js';

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
