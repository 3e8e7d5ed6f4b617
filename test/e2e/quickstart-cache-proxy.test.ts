/**
 * End to end: the built `svc` binary serving examples/quickstart as a process, for the endpoints that
 * talk to something: the cache-aside `GET /api/v1/products/{sku}` (SPEC.md §4.4) on the embedded
 * `memory:` store, the proxy `GET /api/v1/stock/{sku}` and the streaming proxy
 * `GET /api/v1/products.csv` in front of the stand-in upstream the same server serves under
 * /upstream. The server listens on a port chosen here, and UPSTREAM_URL names it, as the quickstart's
 * README says to do on a port other than 8080; a second server points its proxies at a closed port.
 * No REDIS_URL is passed on: the example's own default (`memory:`) is what is tested.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { ensureBuilt } from './build.js';
import { ROOT as root } from '../paths.js';

interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  /** stdout so far: one JSON log line each. */
  lines(): Record<string, unknown>[];
}

/** A loopback port nothing listens on at the moment of asking. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((ok) => probe.close(() => ok()));
  return port;
}

/** `node bin/svc.js serve -c examples/quickstart --port PORT`, resolved once it listens. */
function serveOn(port: number, upstreamUrl: string): Promise<Served> {
  const { REDIS_URL: _redis, UPSTREAM_URL: _upstream, ...inherited } = process.env;
  const child = spawn(process.execPath, ['bin/svc.js', 'serve', '-c', 'examples/quickstart', '--port', String(port)], {
    cwd: root,
    env: { ...inherited, UPSTREAM_URL: upstreamUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  const lines = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return new Promise<Served>((ok, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`svc did not start listening within 20 s:\n${err}`));
    }, 20_000);
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        ok({ child, url: m[1]!, lines });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`svc exited with ${code} before listening:\n${err}`));
    });
  });
}

/** The quickstart on a free port whose proxies call `upstream(port)`; a port taken meanwhile is tried again. */
async function serveQuickstart(upstream: (port: number) => string): Promise<Served> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await serveOn(port, upstream(port));
    } catch (error) {
      if (attempt === 3 || !/already in use/.test(String(error))) throw error;
    }
  }
}

/** The log lines matching `keep`, once there are `count` of them (stdout arrives a little after the response). */
async function logLines(server: Served, keep: (line: Record<string, unknown>) => boolean, count: number): Promise<Record<string, unknown>[]> {
  let lines = server.lines().filter(keep);
  for (let waited = 0; lines.length < count && waited < 3000; waited += 20) {
    await new Promise((ok) => setTimeout(ok, 20));
    lines = server.lines().filter(keep);
  }
  return lines;
}

let served: Served;
let orphaned: Served;

before(async () => {
  ensureBuilt();
  served = await serveQuickstart((port) => `http://127.0.0.1:${port}/upstream`);
  // Its proxies call a port where nothing listens: every upstream call is refused.
  const closed = await freePort();
  orphaned = await serveQuickstart(() => `http://127.0.0.1:${closed}/upstream`);
});

after(() => {
  for (const s of [served, orphaned]) if (s && s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
});

const ANVIL = { sku: 'AB-123', name: 'Anvil', price_cents: 12900 };
const CSV = 'sku,name,price_cents\r\nAB-123,Anvil,12900\r\nCD-456,Dynamite,450\r\nEF-789,Rocket skates,31500\r\n';

test('cache-aside: MISS from the lookup, then HIT from the memory: store with the same body; 404 for an unknown sku', async () => {
  const miss = await fetch(`${served.url}/api/v1/products/AB-123`);
  assert.equal(miss.status, 200);
  assert.equal(miss.headers.get('x-cache'), 'MISS');
  assert.deepEqual(await miss.json(), ANVIL);
  const hit = await fetch(`${served.url}/api/v1/products/AB-123`);
  assert.equal(hit.status, 200);
  assert.equal(hit.headers.get('x-cache'), 'HIT');
  assert.deepEqual(await hit.json(), ANVIL);
  // Another key is a miss of its own.
  const other = await fetch(`${served.url}/api/v1/products/CD-456`);
  assert.equal(other.headers.get('x-cache'), 'MISS');
  assert.deepEqual(await other.json(), { sku: 'CD-456', name: 'Dynamite', price_cents: 450 });
  for (let i = 0; i < 2; i++) {
    const unknown = await fetch(`${served.url}/api/v1/products/ZZ-999`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('x-cache'), null);
    assert.match(unknown.headers.get('content-type')!, /^application\/problem\+json/);
    assert.equal(((await unknown.json()) as { detail: string }).detail, 'The catalogue has no product ZZ-999');
  }
  const invalid = await fetch(`${served.url}/api/v1/products/nope`);
  assert.equal(invalid.status, 422);
});

test('proxy: the upstream answer with its Cache-Control and status, the request id forwarded; its 404 is our problem', async () => {
  const ok = await fetch(`${served.url}/api/v1/stock/AB-123`, { headers: { 'x-request-id': 'e2e-stock' } });
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get('x-upstream-status'), '200');
  assert.equal(ok.headers.get('cache-control'), 'max-age=60');
  assert.deepEqual(await ok.json(), { sku: 'AB-123', in_stock: 7, warehouse: 'north' });
  const missing = await fetch(`${served.url}/api/v1/stock/ZZ-999`);
  assert.equal(missing.status, 404);
  assert.equal(((await missing.json()) as { detail: string }).detail, 'The stock service has no product ZZ-999');
  // The upstream request went over loopback to the same process, carrying the caller's request id.
  const [upstreamLine] = await logLines(served, (l) => l.url === '/upstream/stock/AB-123', 1);
  assert.equal(upstreamLine?.reqId, 'e2e-stock');
});

test('streaming proxy: the upstream CSV byte for byte, with its one Content-Type and its Content-Disposition; both streams logged complete', async () => {
  const direct = await fetch(`${served.url}/upstream/products.csv`);
  assert.equal(await direct.text(), CSV);
  const r = await fetch(`${served.url}/api/v1/products.csv`, { headers: { 'x-request-id': 'e2e-export' } });
  assert.equal(r.status, 200);
  // fetch joins repeated fields with ", ": a second Content-Type would show here.
  assert.equal(r.headers.get('content-type'), 'text/csv; charset=utf-8');
  assert.equal(r.headers.get('content-disposition'), 'attachment; filename="products.csv"');
  assert.equal(r.headers.get('transfer-encoding'), 'chunked');
  assert.equal(Buffer.from(await r.arrayBuffer()).toString('latin1'), CSV);
  // The upstream request carried the request id; each stream's line is written when it has ended.
  const lines = await logLines(served, (l) => l.reqId === 'e2e-export' && l.msg === 'request', 2);
  const proxy = lines.find((l) => l.url === '/api/v1/products.csv');
  const upstream = lines.find((l) => l.url === '/upstream/products.csv');
  // A raw stream's items are the upstream body's chunks, as many as the socket made of it.
  const { items, ...rest } = (proxy?.stream ?? {}) as { items?: number };
  assert.ok(typeof items === 'number' && items >= 1, `raw items: ${items}`);
  assert.deepEqual(rest, { format: 'raw', bytes: CSV.length, ended: 'complete' });
  assert.deepEqual(upstream?.stream, { format: 'csv', items: 3, bytes: CSV.length, ended: 'complete' });
});

test('an upstream that refuses the connection: both proxies answer a 502 problem, the cache still serves', async () => {
  for (const path of ['/api/v1/stock/AB-123', '/api/v1/products.csv']) {
    const r = await fetch(`${orphaned.url}${path}`);
    assert.equal(r.status, 502, path);
    assert.match(r.headers.get('content-type')!, /^application\/problem\+json/);
    const body = (await r.json()) as { type: string; step: string };
    assert.equal(body.type, 'urn:svc:error:bad-gateway');
    assert.equal(body.step, path.endsWith('.csv') ? 'export' : 'stock');
  }
  const product = await fetch(`${orphaned.url}/api/v1/products/EF-789`);
  assert.equal(product.status, 200);
  assert.equal(product.headers.get('x-cache'), 'MISS');
});
