/**
 * `svc openapi -c DIR [-o FILE] [--format=json|yaml]`: JSON on stdout by default, YAML on request, a
 * file with -o; a bad manifest exits 1 with its diagnostics and prints no document.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { compileOpenApi, serializeDocument } from '../../src/openapi/index.js';
import { loadServiceModel } from '../../src/steps/index.js';
import { svc } from '../cli/helpers.js';
import { ROOT as root } from '../paths.js';

const shop = join(root, 'examples', 'shop');

test('JSON on stdout is the compiled document; --format=yaml is the same document; -o writes the file', async () => {
  const expected = serializeDocument(compileOpenApi((await loadServiceModel(shop)).model!), 'json');
  const json = await svc(['openapi', '-c', shop]);
  assert.equal(json.code, 0, json.stderr);
  assert.equal(json.stdout, expected);
  assert.equal(json.stderr, '');

  const yaml = await svc(['openapi', '-c', shop, '--format=yaml']);
  assert.equal(yaml.code, 0, yaml.stderr);
  assert.deepEqual(parse(yaml.stdout), JSON.parse(expected));

  const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
  try {
    const file = join(dir, 'openapi.yaml');
    const written = await svc(['openapi', '-c', shop, '-o', file, '--format', 'yaml']);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(written.stdout, '');
    assert.equal(readFileSync(file, 'utf8'), yaml.stdout);
    const missing = await svc(['openapi', '-c', shop, '-o', join(dir, 'no', 'such', 'dir', 'x.json')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /svc openapi: cannot write/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a bad manifest exits 1 with its diagnostics and no document', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-bad-'));
  try {
    writeFileSync(join(dir, 'main.hcl'), 'endpoint "GET /a" {\n  pipeline {\n    respond { body = steps.nope.row }\n  }\n}\n');
    const r = await svc(['openapi', '-c', dir]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /Error: /);
    assert.match(r.stderr, /svc openapi: the manifest has 1 error/);
    const json = await svc(['openapi', '-c', dir, '--diagnostics=json']);
    assert.equal(json.code, 1);
    assert.ok((JSON.parse(json.stderr) as { diagnostics: unknown[] }).diagnostics.length > 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
