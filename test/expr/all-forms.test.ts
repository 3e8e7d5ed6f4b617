/**
 * A manifest exercising every expression form evaluates to the values HCL itself gives
 * (fixtures/all-forms.hcl, expected values and variables in fixtures/all-forms.json).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Attribute } from '../../src/hcl/ast.js';
import { parseFile } from '../../src/hcl/index.js';
import { compileExpression } from '../../src/expr/index.js';
import { sourceDir } from '../paths.js';

const here = sourceDir(import.meta.url);
const source = readFileSync(join(here, 'fixtures/all-forms.hcl'), 'utf8');
const expected = JSON.parse(readFileSync(join(here, 'fixtures/all-forms.json'), 'utf8')) as {
  vars: Record<string, unknown>;
  values: Record<string, unknown>;
};

describe('all expression forms (fixtures/all-forms.hcl)', () => {
  const { file, diagnostics } = parseFile(source, 'all-forms.hcl');
  it('parses cleanly', () => assert.deepEqual(diagnostics, []));
  const attrs = file.body.items.filter((i): i is Attribute => i.kind === 'Attribute');

  it('has an expected value for every attribute and an attribute for every expected value', () => {
    assert.deepEqual(attrs.map((a) => a.name).sort(), Object.keys(expected.values).sort());
  });

  for (const attr of attrs) {
    it(attr.name, () => {
      const { compiled, diagnostics: d } = compileExpression(attr.expr);
      assert.deepEqual(d, []);
      assert.deepEqual(compiled.evaluate(expected.vars), expected.values[attr.name]);
    });
  }
});
