/** The 429 of rate-limited operations (src/openapi/standard-responses.ts), and none where no limit applies. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintProblems, validationErrors } from './checks.js';
import { documentOf, type Json, operation } from './helpers.js';

test('a limited operation lists 429 with Retry-After and the RateLimit fields; an exempt one does not', async () => {
  const doc = documentOf(`
server {
  rate_limit {
    max    = 10
    window = "1m"
  }
}
route "GET /a" {
  respond { body = { ok = true } }
}
route "GET /health" {
  rate_limit = false
  respond { body = { ok = true } }
}
`);
  assert.deepEqual(operation(doc, 'GET', '/a').responses['429'], { $ref: '#/components/responses/TooManyRequests' });
  assert.equal(operation(doc, 'GET', '/health').responses['429'], undefined);
  const response = (doc.components as Json).responses.TooManyRequests;
  assert.deepEqual(Object.keys(response.headers), ['Retry-After', 'RateLimit', 'RateLimit-Policy']);
  assert.deepEqual(Object.keys(response.content), ['application/problem+json']);
  assert.deepEqual(await validationErrors(doc), []);
  // Redocly's recommended rules find nothing in the response or the operation (the manifest's own gaps aside).
  assert.deepEqual(
    (await lintProblems(doc)).filter((p) => p.where.includes('TooManyRequests') || p.where.startsWith('#/paths/~1a/')),
    [],
  );
});
