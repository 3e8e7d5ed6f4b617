/**
 * The "unclosed ..." cases of hashicorp/hcl's hclsyntax TestParseConfigDiagnostics
 * (parser_test.go), with the summary, subject and context ranges hclsyntax reports.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFile } from '../../src/hcl/index.js';
import { at } from './helpers.js';

// [input, summary, subject, context?]: ranges as line:col@byte-line:col@byte
const cases: [string, string, string, string?][] = [
  ['blah {\n', 'Unclosed configuration block', '1:6@5-1:7@6'],
  ['blah {\n  a = 1\n', 'Unclosed configuration block', '1:6@5-1:7@6'],
  ['blah {', 'Unclosed configuration block', '1:6@5-1:7@6'],
  ['blah { a = 1', 'Unclosed configuration block', '1:6@5-1:7@6', '1:1@0-1:7@6'],
  ['foo = { a = 1', 'Unterminated object constructor expression', '1:7@6-1:8@7'],
  ['foo = { a ', 'Unterminated object constructor expression', '1:7@6-1:8@7'],
  ['foo = [ a', 'Unterminated tuple constructor expression', '1:7@6-1:8@7'],
  ['foo = boop("a"', 'Unterminated function call', '1:7@6-1:12@11'],
  ['foo = (1', 'Unbalanced parentheses', '1:9@8-1:9@8', '1:7@6-1:9@8'],
  ['foo = "${a', 'Unclosed template interpolation sequence', '1:8@7-1:10@9'],
  ['foo = "${a"', 'Unclosed template interpolation sequence', '1:8@7-1:10@9'],
  ['foo = "${a}', 'Unterminated template string', '1:12@11-1:12@11', '1:8@7-1:12@11'],
  ['foo = {', 'Missing expression', '1:8@7-1:8@7'],
  ['foo = [', 'Missing expression', '1:8@7-1:8@7'],
  ['foo = foo(', 'Missing expression', '1:11@10-1:11@10'],
];

for (const [input, summary, subject, context] of cases) {
  test(`hclsyntax diagnostics: ${JSON.stringify(input)}`, () => {
    const { diagnostics } = parseFile(input, 'test.hcl');
    assert.equal(diagnostics.length, 1, diagnostics.map((d) => d.summary).join('; '));
    const d = diagnostics[0]!;
    assert.equal(d.summary, summary);
    assert.equal(at(d.subject), subject);
    if (context) assert.equal(at(d.context), context);
  });
}
