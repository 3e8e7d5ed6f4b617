/**
 * Metrics off (the default) cost nothing: prom-client is never loaded, no page exists, the step
 * compiler is given no observer, and the request log is the plain one. Its own file, so that no other
 * test of the process has loaded prom-client (or pino-pretty, for the JSON log format) before.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { buildServiceModel } from '../../src/steps/index.js';
import { logSettings, serveTelemetry } from '../../src/cli/log-settings.js';
import { packageLoaded, serveWithTelemetry } from './metrics-helpers.js';

test('without server.metrics: no page, no observer, prom-client and pino-pretty never loaded', async () => {
  const source = `
endpoint "GET /a" {
  pipeline {
    respond {
      body = "a"
    }
  }
}
`;
  const s = await serveWithTelemetry(source);
  try {
    assert.equal((await s.app.inject({ method: 'GET', url: '/a' })).statusCode, 200);
    const page = await s.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(page.statusCode, 404);
    assert.match(String(page.headers['content-type']), /^application\/problem\+json/);
    assert.equal(s.log.requests().length, 2);
  } finally {
    await s.close();
  }
  const model = buildServiceModel([{ filename: 'api.hcl', source }], { dir: '.' }).model!;
  assert.equal(serveTelemetry(logSettings({ flags: {}, positionals: [] }, {}), { stream: { write: () => true } }).observeSteps(model), undefined);
  assert.equal(packageLoaded('prom-client'), false, 'prom-client was loaded');
  assert.equal(packageLoaded('pino-pretty'), false, 'pino-pretty was loaded');
  // The check itself sees a package once it is loaded.
  createRequire(import.meta.url)('prom-client');
  assert.equal(packageLoaded('prom-client'), true);
});
