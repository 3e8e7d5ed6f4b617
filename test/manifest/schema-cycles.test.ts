/** Unsatisfiable schemas (required fields leading back to the schema): found in polynomial time. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Diagnostics } from '../../src/diag/index.js';
import { parseFile } from '../../src/hcl/index.js';
import { decodeManifest, stepDecoderTable } from '../../src/manifest/index.js';
import { STEP_KINDS } from '../../src/steps/index.js';
import { cpuTimer } from '../cpu-time.js';

function decode(source: string) {
  const { file, diagnostics } = parseFile(source, 'f.hcl');
  assert.deepEqual(diagnostics, []);
  const diags = new Diagnostics();
  decodeManifest([file], diags, { rootDir: '.', read: false }, stepDecoderTable(STEP_KINDS));
  return diags.items;
}

const schema = (name: string, required: readonly string[]) =>
  `schema "${name}" {\n` +
  (required.length === 0 ? '  field "x" {\n    type = string\n  }\n' : '') +
  required.map((t, i) => `  field "f${i}" {\n    type     = schema.${t}\n    required = true\n  }\n`).join('') +
  '}\n';

test('schemas sharing sub-schemas (a diamond 26 levels deep: 2^26 paths) are checked without walking every path', () => {
  const n = 26;
  const source = Array.from({ length: n }, (_, i) => schema(`s${i}`, i + 1 < n ? [`s${i + 1}`, `s${i + 1}`] : [])).join('');
  const cpuMs = cpuTimer();
  assert.deepEqual(decode(source), []);
  assert.ok(cpuMs() < 2000, `took ${cpuMs()} ms`);
});

test('the reported chain is the shortest way back', () => {
  const d = decode(schema('a', ['b', 'a']) + schema('b', ['a']));
  assert.deepEqual(
    d.map((x) => x.detail?.match(/\((.*)\)/)?.[1]),
    ['a -> a', 'b -> a -> b'],
  );
});
