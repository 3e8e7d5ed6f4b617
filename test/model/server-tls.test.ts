/**
 * `server { tls { cert_file, key_file } }` and `h2c` as the manifest decodes them (docs/tls.md):
 * the PEM files read with the rules of every referenced file, a pair Node cannot serve
 * refused at boot with SVC_LOAD_TLS_INVALID, `h2c` beside `tls` refused, required attributes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeOf } from '../../src/diag/index.js';
import { loadServiceModel } from '../../src/steps/index.js';
import { makeCertificate } from '../http/tls-helpers.js';

const ENDPOINT = 'endpoint "GET /" {\n  pipeline {\n    respond {\n      body = { ok = true }\n    }\n  }\n}\n';

function dirWith(t: { after(fn: () => void): void }, server: string, certificate = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tls-model-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  if (certificate) {
    mkdirSync(join(dir, 'tls'));
    makeCertificate(join(dir, 'tls'), 'model');
  }
  writeFileSync(join(dir, 'main.hcl'), `server {\n${server}\n}\n${ENDPOINT}`);
  return dir;
}

const TLS = 'tls {\n  cert_file = "tls/cert.pem"\n  key_file = "tls/key.pem"\n}';

async function load(dir: string) {
  const r = await loadServiceModel(dir);
  return {
    model: r.model,
    diagnostics: r.diagnostics.map((d) => ({ code: codeOf(d), summary: d.summary, line: d.subject?.start.line, detail: d.detail ?? '' })),
  };
}

test('a tls block reads its PEM files; no h2c unless asked', async (t) => {
  const dir = dirWith(t, TLS);
  const r = await load(dir);
  assert.deepEqual(r.diagnostics, []);
  const tls = r.model!.server.tls!;
  assert.equal(tls.certFile, join(dir, 'tls', 'cert.pem'));
  assert.match(tls.cert!, /^-----BEGIN CERTIFICATE-----/);
  assert.match(tls.key!, /PRIVATE KEY-----/);
  assert.equal(r.model!.server.h2c, undefined);
});

test('h2c = true alone is cleartext HTTP/2; beside tls it is an error', async (t) => {
  assert.equal((await load(dirWith(t, 'h2c = true', false))).model!.server.h2c, true);
  const both = await load(dirWith(t, `h2c = true\n${TLS}`));
  assert.equal(both.model, undefined);
  assert.deepEqual(
    both.diagnostics.map((d) => [d.code, d.line]),
    [['SVC_MANIFEST_INVALID_VALUE', 2]],
  );
});

test("a key that is not the certificate's, or a file that is not PEM, is SVC_LOAD_TLS_INVALID at boot", async (t) => {
  const dir = dirWith(t, TLS);
  mkdirSync(join(dir, 'other'));
  makeCertificate(join(dir, 'other'), 'other');
  writeFileSync(join(dir, 'main.hcl'), `server {\ntls {\n  cert_file = "tls/cert.pem"\n  key_file = "other/key.pem"\n}\n}\n${ENDPOINT}`);
  const mismatch = await load(dir);
  assert.equal(mismatch.model, undefined);
  assert.deepEqual(
    mismatch.diagnostics.map((d) => d.code),
    ['SVC_LOAD_TLS_INVALID'],
  );
  writeFileSync(join(dir, 'tls', 'cert.pem'), 'not a certificate\n');
  writeFileSync(join(dir, 'main.hcl'), `server {\n${TLS}\n}\n${ENDPOINT}`);
  const garbage = await load(dir);
  assert.deepEqual(
    garbage.diagnostics.map((d) => d.code),
    ['SVC_LOAD_TLS_INVALID'],
  );
});

test("the files follow the manifest files' rules: outside the directory, a symlink out, missing; both attributes required", async (t) => {
  const outside = dirWith(t, '');
  const dir = dirWith(t, `tls {\n  cert_file = "../${outside.split('/').pop()}/tls/cert.pem"\n  key_file = "tls/key.pem"\n}`);
  assert.deepEqual(
    (await load(dir)).diagnostics.map((d) => d.code),
    ['SVC_LOAD_FILE_OUTSIDE_DIRECTORY'],
  );
  symlinkSync(join(outside, 'tls', 'key.pem'), join(dir, 'linked.pem'));
  writeFileSync(join(dir, 'main.hcl'), `server {\ntls {\n  cert_file = "tls/cert.pem"\n  key_file = "linked.pem"\n}\n}\n${ENDPOINT}`);
  assert.deepEqual(
    (await load(dir)).diagnostics.map((d) => d.code),
    ['SVC_LOAD_FILE_OUTSIDE_DIRECTORY'],
  );
  writeFileSync(join(dir, 'main.hcl'), `server {\ntls {\n  cert_file = "tls/missing.pem"\n  key_file = "tls/key.pem"\n}\n}\n${ENDPOINT}`);
  assert.deepEqual(
    (await load(dir)).diagnostics.map((d) => d.code),
    ['SVC_LOAD_REFERENCED_FILE_UNREADABLE'],
  );
  writeFileSync(join(dir, 'main.hcl'), `server {\ntls {\n  cert_file = "tls/cert.pem"\n}\n}\n${ENDPOINT}`);
  assert.deepEqual(
    (await load(dir)).diagnostics.map((d) => d.code),
    ['SVC_MANIFEST_MISSING_ARGUMENT'],
  );
});
