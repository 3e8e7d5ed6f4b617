/**
 * svc loads the part of a library it uses, not its index: undici's pools, agent and `request`
 * (src/connectors/http/undici-core.ts) rather than all of undici, and RxJS's Observable and
 * Subscription rather than every operator. Together about 12 MiB of resident memory at boot, the
 * margin that keeps a streaming proxy under 100 MB (bench/proxy). Its own file, so that no other
 * test of the process has loaded the indexes before.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { serveWithTelemetry } from '../http/metrics-helpers.js';

function loaded(fragment: string): string[] {
  return Object.keys(createRequire(import.meta.url).cache).filter((path) => path.includes(fragment));
}

test('an http step works on undici core alone, and neither undici nor RxJS is loaded by its index', async () => {
  const upstream = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ path: request.url }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  const s = await serveWithTelemetry(`
endpoint "GET /via" {
  pipeline {
    http "upstream" {
      url = "http://127.0.0.1:${port}/thing"
    }
    respond {
      body = { status = steps.upstream.status, body = steps.upstream.body }
    }
  }
}
`);
  try {
    const answer = await s.app.inject({ method: 'GET', url: '/via' });
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual(answer.json(), { status: 200, body: { path: '/thing' } });
  } finally {
    await s.close();
    upstream.close();
  }
  assert.ok(loaded('/node_modules/undici/lib/dispatcher/pool.js').length === 1, 'undici core was not loaded');
  assert.deepEqual(loaded('/node_modules/undici/index.js'), []);
  assert.deepEqual(loaded('/node_modules/undici/lib/web/'), []);
  assert.ok(loaded('/node_modules/rxjs/dist/cjs/internal/Observable.js').length === 1, 'RxJS was not loaded');
  assert.deepEqual(loaded('/node_modules/rxjs/dist/cjs/index.js'), []);
  assert.deepEqual(loaded('/node_modules/rxjs/dist/cjs/internal/operators/mergeMap.js'), []);
  // The check itself sees an index once it is loaded.
  createRequire(import.meta.url)('undici');
  assert.equal(loaded('/node_modules/undici/index.js').length, 1);
});
