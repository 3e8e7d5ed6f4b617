/**
 * One annotated manifest per case under fixtures/bad/: every annotation must match a diagnostic
 * on its line, and no diagnostic may appear that is not annotated. Every case must also fail the
 * build (no model), and the good fixtures must build without any diagnostic.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildServiceModel } from '../../src/steps/index.js';
import { checkAnnotations, parseAnnotations } from './annotations.js';
import { sourceDir } from '../paths.js';

const here = sourceDir(import.meta.url);
const badDir = join(here, 'fixtures', 'bad');

for (const name of readdirSync(badDir)
  .filter((f) => f.endsWith('.hcl'))
  .sort()) {
  test(`bad fixture ${name}`, () => {
    const source = readFileSync(join(badDir, name), 'utf8');
    const annotations = parseAnnotations(source);
    assert.ok(annotations.length > 0, 'a bad fixture has at least one annotation');
    const result = buildServiceModel([{ filename: name, source }]);
    assert.deepEqual(checkAnnotations(annotations, result.diagnostics, name), []);
    if (annotations.some((a) => a.severity === 'error')) assert.equal(result.model, undefined);
  });
}

test('the good fixtures (SPEC.md §4.4 in both dialects) build without a diagnostic', () => {
  const dir = join(here, 'fixtures', 'good');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.hcl'))
    .sort()
    .map((f) => ({ filename: f, source: readFileSync(join(dir, f), 'utf8') }));
  const result = buildServiceModel(files);
  assert.deepEqual(result.diagnostics, []);
  assert.ok(result.model);
});
