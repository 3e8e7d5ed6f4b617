/**
 * svc gives Fastify compilers that refuse (src/http/route-schemas.ts), so Fastify never loads its own
 * Ajv and serializer compilers: a route given a schema by mistake stops the boot, saying why.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fastify } from 'fastify';
import { NO_ROUTE_SCHEMAS } from '../../src/http/route-schemas.js';

test('a route with a validation schema is refused at ready, in words that name svc own validation', async () => {
  const app = fastify({ schemaController: NO_ROUTE_SCHEMAS });
  app.get('/q', { schema: { querystring: { type: 'object' } } }, async () => ({}));
  await assert.rejects(async () => app.ready(), /svc does not use Fastify route schemas/);
});

test('a route with a response schema is refused at ready too', async () => {
  const app = fastify({ schemaController: NO_ROUTE_SCHEMAS });
  app.get('/r', { schema: { response: { 200: { type: 'object' } } } }, async () => ({}));
  await assert.rejects(async () => app.ready(), /svc does not use Fastify route schemas/);
});

test('routes without schemas are served as usual', async () => {
  const app = fastify({ schemaController: NO_ROUTE_SCHEMAS });
  app.get('/plain', async () => ({ ok: true }));
  const answer = await app.inject({ method: 'GET', url: '/plain' });
  assert.equal(answer.statusCode, 200);
  assert.deepEqual(answer.json(), { ok: true });
  await app.close();
});
