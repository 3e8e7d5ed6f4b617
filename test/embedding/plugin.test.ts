/**
 * `svcPlugin` mounts a service's endpoints under a prefix of the program's own Fastify app: svc
 * answers under the prefix (its validation, its problems, its 404), the host app everything else,
 * and a body is read by svc, not by the host's parsers. Closing the host app closes svc's side.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { fastify } from 'fastify';
import { defineStep, loadService, svcPlugin } from '../../src/index.js';
import { tempManifest, until } from './helpers.js';

const MANIFEST = `
endpoint "GET /items/{id}" {
  pipeline {
    lookup "item" {
      id = ctx.request.path.id
    }
    respond {
      body = { id = steps.item.id, name = steps.item.name }
    }
  }
}

endpoint "GET /hang" {
  pipeline {
    hang "h" {}
    respond {
      body = steps.h.never
    }
  }
}

endpoint "POST /items" {
  request {
    body {
      field "name" {
        type       = string
        min_length = 1
      }
    }
  }
  pipeline {
    respond {
      status = 201
      body   = { name = ctx.request.body.name }
    }
  }
}
`;

const lookup = defineStep({
  name: 'lookup',
  attributes: { id: { type: 'string', required: true } },
  outputs: ['id', 'name'],
  run: ({ id }) => ({ id, name: `item ${id}` }),
});

const hangs = { started: 0, aborted: 0 };
const hang = defineStep({
  name: 'hang',
  outputs: ['never'],
  run: (_attributes, { signal }) => {
    hangs.started++;
    return new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => {
        hangs.aborted++;
        reject(signal.reason);
      });
    });
  },
});

test('a service mounted under a prefix of a Fastify app answers there; the host app answers the rest', async () => {
  const m = tempManifest(MANIFEST);
  const loaded = await loadService(m.dir, { steps: [lookup, hang] });
  assert.equal(loaded.report, '');
  const app = fastify();
  app.get('/hello', async () => ({ from: 'host' }));
  await app.register(svcPlugin, { service: loaded.service!, prefix: '/api', log: { level: 'silent' } });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const item = await fetch(`${url}/api/items/7?x=1`);
    assert.equal(item.status, 200);
    assert.deepEqual(await item.json(), { id: '7', name: 'item 7' });

    const created = await fetch(`${url}/api/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"pen"}' });
    assert.equal(created.status, 201);
    assert.deepEqual(await created.json(), { name: 'pen' });

    const invalid = await fetch(`${url}/api/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":""}' });
    assert.equal(invalid.status, 422);
    assert.match(invalid.headers.get('content-type') ?? '', /^application\/problem\+json/);

    const missing = await fetch(`${url}/api/nothing`);
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type') ?? '', /^application\/problem\+json/);

    const notAllowed = await fetch(`${url}/api/items/7`, { method: 'DELETE' });
    assert.equal(notAllowed.status, 405);

    // A client that leaves aborts the step's signal, as when svc listens itself.
    const request = get(`${url}/api/hang`);
    request.on('error', () => {});
    await until(() => hangs.started === 1, 'the step started');
    request.destroy();
    await until(() => hangs.aborted === 1, 'the step aborted');

    const host = await fetch(`${url}/hello`);
    assert.deepEqual(await host.json(), { from: 'host' });
    // Outside the prefix, the manifest's paths are not served.
    assert.equal((await fetch(`${url}/items/7`)).status, 404);
  } finally {
    await app.close();
    m.remove();
  }
});
