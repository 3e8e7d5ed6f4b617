/**
 * `neutralize_formulas` on a `csv` stream (docs/streams.md): the attribute decoded from a manifest and
 * applied to the bytes served; without it the cells are sent as they are.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildServer, createLogger } from '../../src/http/index.js';
import { buildServiceModel, compileService } from '../../src/steps/index.js';
import { LogCapture } from './helpers.js';

const MANIFEST = `
route "GET /plain.csv" {
  stream "csv" {
    source = [{ name = "=HYPERLINK(\\"http://x\\")", total = -3 }, { name = "@a", total = 2 }]
  }
}
route "GET /safe.csv" {
  stream "csv" {
    source              = [{ name = "=HYPERLINK(\\"http://x\\")", total = -3 }, { name = "@a", total = 2 }]
    neutralize_formulas = true
  }
}
`;

test('a csv stream with neutralize_formulas = true serves formulas as text; without it, as they are', async () => {
  const built = buildServiceModel([{ filename: 'api.hcl', source: MANIFEST }]);
  assert.deepEqual(
    built.diagnostics.map((d) => d.summary),
    [],
  );
  const service = compileService(built.model!);
  assert.deepEqual(service.diagnostics, []);
  const app = await buildServer({
    endpoints: service.endpoints,
    bodyLimit: 1024,
    requestTimeoutMs: 5000,
    logger: createLogger({ stream: new LogCapture(), level: 'info' }),
  });
  try {
    const plain = await app.inject({ method: 'GET', url: '/plain.csv' });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.body, 'name,total\r\n"=HYPERLINK(""http://x"")",-3\r\n@a,2\r\n');
    const safe = await app.inject({ method: 'GET', url: '/safe.csv' });
    assert.equal(safe.statusCode, 200);
    assert.equal(safe.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(safe.body, 'name,total\r\n"\'=HYPERLINK(""http://x"")",-3\r\n\'@a,2\r\n');
  } finally {
    await app.close();
  }
});

test('neutralize_formulas must be a bool', () => {
  const source = 'route "GET /t.csv" {\n  stream "csv" {\n    source              = []\n    neutralize_formulas = "yes"\n  }\n}\n';
  const built = buildServiceModel([{ filename: 'api.hcl', source }]);
  const errors = built.diagnostics.filter((d) => d.severity === 'error');
  assert.equal(errors.length, 1, errors.map((d) => d.summary).join('; '));
  assert.equal(errors[0]!.summary, 'Incorrect attribute value type');
  assert.equal(errors[0]!.subject?.start.line, 4);
});
