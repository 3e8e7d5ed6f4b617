/**
 * examples/proxy as its README serves it, in-process on a real port: the proxy endpoints call the
 * stand-in catalogue of the same server over loopback (CATALOGUE_URL), no internet involved.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createConnectors, type ConnectorSet } from '../../src/connectors/index.js';
import { buildServer, createLogger } from '../../src/http/index.js';
import { buildServiceModel, compileService } from '../../src/steps/index.js';
import { LogCapture } from '../http/helpers.js';
import { ROOT } from '../paths.js';

const example = join(ROOT, 'examples/proxy');

let app: FastifyInstance;
let connectors: ConnectorSet;
let base: string;

before(async () => {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  // env() is read when the manifest is compiled: set before the build.
  process.env.CATALOGUE_URL = `http://127.0.0.1:${port}/upstream`;
  const files = await Promise.all(['catalogue.hcl', 'main.hcl'].map(async (f) => ({ filename: f, source: await readFile(join(example, f), 'utf8') })));
  const built = buildServiceModel(files, { dir: example });
  assert.deepEqual(
    built.diagnostics.filter((d) => d.severity === 'error').map((d) => d.summary),
    [],
  );
  connectors = createConnectors(built.model!);
  const service = compileService(built.model!, { connectors });
  assert.deepEqual(
    service.diagnostics.map((d) => d.summary),
    [],
  );
  await connectors.openAll();
  app = await buildServer({ endpoints: service.endpoints, bodyLimit: 1 << 20, requestTimeoutMs: 10_000, logger: createLogger({ stream: new LogCapture() }) });
  await app.listen({ host: '127.0.0.1', port });
  base = `http://127.0.0.1:${port}`;
});

after(async () => {
  delete process.env.CATALOGUE_URL;
  await app?.close();
  await connectors?.closeAll();
});

test('GET through: the upstream body, its status and cache-control; our request id reaches the upstream', async () => {
  const res = await fetch(`${base}/api/v1/products/AB-123`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('x-upstream-status'), '200');
  assert.equal(res.headers.get('cache-control'), 'max-age=60');
  const body = (await res.json()) as Record<string, unknown>;
  assert.deepEqual({ ...body, request_id: undefined }, { sku: 'AB-123', name: 'Anvil', price_cents: 12900, served_by: 'catalogue', request_id: undefined });
  assert.equal(body.request_id, res.headers.get('x-request-id'));
});

test("the upstream's 404 becomes our own problem", async () => {
  const res = await fetch(`${base}/api/v1/products/ZZ-999`);
  assert.equal(res.status, 404);
  const problem = (await res.json()) as Record<string, unknown>;
  assert.equal(problem.title, 'No such product');
  assert.equal(problem.detail, 'The catalogue has no product ZZ-999');
});

test('POST through: the JSON body sent on, 201, and the upstream 409 passed through', async () => {
  const post = (body: unknown) =>
    fetch(`${base}/api/v1/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const created = await post({ sku: 'CD-456', quantity: 2 });
  assert.equal(created.status, 201);
  const order = (await created.json()) as Record<string, unknown>;
  assert.equal(order.sku, 'CD-456');
  assert.equal(order.quantity, 2);
  assert.equal(typeof order.order_id, 'string');
  // The default quantity (1) is filled in by validation before the body is sent on.
  assert.equal(((await (await post({ sku: 'AB-123' })).json()) as Record<string, unknown>).quantity, 1);
  const refused = await post({ sku: 'CD-456', quantity: 5 });
  assert.equal(refused.status, 409);
  assert.equal(((await refused.json()) as Record<string, unknown>).title, 'Order refused');
});

test('an upstream that refuses the connection: 502 bad-gateway', async () => {
  const res = await fetch(`${base}/api/v1/unreachable`);
  assert.equal(res.status, 502);
  assert.equal(((await res.json()) as Record<string, unknown>).type, 'urn:svc:error:bad-gateway');
});
