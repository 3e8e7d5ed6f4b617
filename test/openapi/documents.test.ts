/**
 * The documents of real manifests: every example and the reference fixture pass a strict OpenAPI 3.1
 * validator and Redocly's recommended lint rules without an error; the examples' documents are held
 * to golden files; JSON and YAML are the same document; compiling twice gives the same bytes.
 *
 * After an intended change, rewrite the golden files with
 * `SVC_UPDATE_GOLDEN=1 node --import tsx --test test/openapi/documents.test.ts` and review the diff.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { compileOpenApi, serializeDocument } from '../../src/openapi/index.js';
import { loadServiceModel } from '../../src/steps/index.js';
import { sqliteUnavailableReason } from '../../src/manifest/sqlite-support.js';
import { lintProblems, validationErrors } from './checks.js';
import { ROOT as root } from '../paths.js';

const golden = join(root, 'test', 'openapi', 'golden');
const update = process.env.SVC_UPDATE_GOLDEN === '1';

const examples = readdirSync(join(root, 'examples'))
  .filter((n) => statSync(join(root, 'examples', n)).isDirectory())
  // Its manifest needs the step kinds of its program: its document is tested in test/embedding.
  .filter((n) => n !== 'embedded')
  // A sqlite connection is a boot error on a Node.js without node:sqlite (Node.js 20): there, no document.
  .filter((n) => n !== 'sqlite-crud' || sqliteUnavailableReason() === undefined)
  .sort();
const manifests = [...examples.map((n) => join('examples', n)), join('test', 'model', 'fixtures', 'good')];

async function documentOf(dir: string): Promise<string> {
  const loaded = await loadServiceModel(join(root, dir));
  assert.ok(loaded.model, `${dir}: ${loaded.diagnostics.map((d) => d.summary).join('; ')}`);
  return serializeDocument(compileOpenApi(loaded.model), 'json');
}

for (const dir of manifests) {
  test(`${dir}: a valid OpenAPI 3.1 document with no lint error`, async () => {
    const document = JSON.parse(await documentOf(dir)) as { openapi: string; paths: object };
    assert.equal(document.openapi, '3.1.0');
    assert.ok(Object.keys(document.paths).length > 0);
    assert.deepEqual(await validationErrors(document), []);
    const errors = (await lintProblems(document)).filter((p) => p.severity === 'error');
    assert.deepEqual(errors, []);
  });
}

for (const name of ['quickstart', 'validation', 'shop', 'proxy', 'live']) {
  test(`examples/${name}: the document is the golden one`, async (t) => {
    const text = await documentOf(join('examples', name));
    const file = join(golden, `${name}.json`);
    if (update) {
      writeFileSync(file, text);
      t.diagnostic(`rewrote ${file}`);
      return;
    }
    assert.equal(
      text,
      readFileSync(file, 'utf8'),
      `the document of examples/${name} changed: rewrite the golden file with SVC_UPDATE_GOLDEN=1 if it is intended`,
    );
  });
}

test('compiling twice gives the same bytes; YAML is the same document as JSON', async () => {
  for (const dir of manifests) {
    const loaded = await loadServiceModel(join(root, dir));
    const first = compileOpenApi(loaded.model!);
    const second = compileOpenApi(loaded.model!);
    assert.equal(serializeDocument(first, 'json'), serializeDocument(second, 'json'), dir);
    const yaml = serializeDocument(first, 'yaml');
    assert.doesNotMatch(yaml, /^\s*[&*]\w/m, `${dir}: YAML has anchors or aliases`);
    assert.deepEqual(parse(yaml), JSON.parse(serializeDocument(first, 'json')), dir);
  }
});
