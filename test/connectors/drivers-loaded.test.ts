/**
 * A driver is loaded by the first connection that needs it (each connector's index.ts): a service
 * without a PostgreSQL connection never loads pg, one without a Redis server never loads ioredis, one
 * without an `http` step never loads undici. Each costs megabytes of resident memory at boot. Its own
 * file, so that no other test of the process has loaded them before.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { packageLoaded, serveWithTelemetry } from '../http/metrics-helpers.js';

test('a service with a memory: store and no database or upstream loads none of pg, mysql2, ioredis, undici', async () => {
  const s = await serveWithTelemetry(`
connection "redis" "cache" {
  url = "memory:"
}

endpoint "GET /count" {
  pipeline {
    redis "n" {
      connection = connection.redis.cache
      command    = "INCR"
      key        = "hits"
    }
    respond {
      body = { n = steps.n.value }
    }
  }
}
`);
  try {
    const answer = await s.app.inject({ method: 'GET', url: '/count' });
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual(answer.json(), { n: 1 });
  } finally {
    await s.close();
  }
  for (const driver of ['pg', 'pg-pool', 'pg-query-stream', 'mysql2', 'ioredis', 'undici']) assert.equal(packageLoaded(driver), false, `${driver} was loaded`);
  // The check itself sees a package once it is loaded.
  createRequire(import.meta.url)('pg');
  assert.equal(packageLoaded('pg'), true);
});
