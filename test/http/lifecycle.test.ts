import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createFront, listen, listenFront, shutdown, shutdownFront } from '../../src/http/index.js';
import type { EndpointResult, PendingResult } from '../../src/steps/index.js';
import { endpoint, json, pendingOf, server } from './helpers.js';
import { until } from './stream-helpers.js';

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => done({ status: res.statusCode!, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

function slow(ms: number): PendingResult {
  return pendingOf(new Promise<EndpointResult>((resolve) => setTimeout(() => resolve(json({ slept: ms })), ms)));
}

/**
 * A promise the handler resolves when a request reaches it. A shutdown must begin only after that:
 * a connection still in the listen backlog when the listener closes is reset, not served, and a
 * loaded machine can keep it there longer than any fixed wait.
 */
function arrival(): { arrived: Promise<void>; arrive: () => void } {
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  return { arrived, arrive };
}

test('shutdown stops accepting, finishes in-flight requests, then resolves', async () => {
  const { arrived, arrive } = arrival();
  const { app } = await server([
    endpoint('GET /slow', () => {
      arrive();
      return slow(150);
    }),
    endpoint('GET /fast', () => json({})),
  ]);
  const { url } = await listen(app, { host: '127.0.0.1', port: 0 });
  const inflight = get(`${url}/slow`);
  await arrived;
  const started = Date.now();
  const closed = shutdown(app, { shutdownTimeoutMs: 10_000, logger: app.log as never });
  await new Promise((r) => setTimeout(r, 10));
  await assert.rejects(get(`${url}/fast`), /ECONNREFUSED/);
  assert.deepEqual(await inflight, { status: 200, body: '{"slept":150}' });
  await closed;
  assert.ok(Date.now() - started < 5_000, 'no wait for the time-out when nothing is left');
});

test('shutdown_timeout closes connections whose requests do not finish', async () => {
  const { arrived, arrive } = arrival();
  const { app } = await server([
    endpoint('GET /hang', (): PendingResult => {
      arrive();
      return pendingOf(new Promise(() => {}));
    }),
  ]);
  const { url } = await listen(app, { host: '127.0.0.1', port: 0 });
  const hanging = get(`${url}/hang`).catch((e: Error) => e.message);
  await arrived;
  const started = Date.now();
  const warnings: unknown[] = [];
  await shutdown(app, { shutdownTimeoutMs: 200, logger: { warn: (o: unknown) => warnings.push(o) } as never });
  const elapsed = Date.now() - started;
  assert.ok(elapsed >= 180 && elapsed < 5_000, `closed after the time-out (${elapsed} ms)`);
  assert.match(String(await hanging), /socket hang up|ECONNRESET/);
  assert.equal(warnings.length, 1);
});

test('a connection that never sent a request does not hold the shutdown until the time-out', async () => {
  const { app } = await server([endpoint('GET /fast', () => json({}))]);
  const { port } = await listen(app, { host: '127.0.0.1', port: 0 });
  // A browser's or a client pool's spare socket: connected, silent.
  const spare = connect(port, '127.0.0.1');
  await new Promise((r) => spare.once('connect', r));
  const closedByServer = new Promise((r) => spare.once('close', r));
  const started = Date.now();
  await shutdown(app, { shutdownTimeoutMs: 10_000, logger: { warn() {}, info() {} } as never });
  assert.ok(Date.now() - started < 2_000, `shut down after ${Date.now() - started} ms`);
  await closedByServer;
});

/** Both ways svc stops serving: one app on its own server, and `svc serve`'s front server. */
const stoppers = [
  {
    name: 'shutdown',
    async start(app: TestApp) {
      const { port } = await listen(app, { host: '127.0.0.1', port: 0 });
      return { port, server: app.server, stop: (ms: number) => shutdown(app, { shutdownTimeoutMs: ms, logger: quiet }) };
    },
  },
  {
    name: 'shutdownFront',
    async start(app: TestApp) {
      const front = createFront({ requestTimeoutMs: 30_000, app });
      const { port } = await listenFront(front, { host: '127.0.0.1', port: 0 });
      return { port, server: front.server, stop: (ms: number) => shutdownFront(front, { shutdownTimeoutMs: ms, logger: quiet }) };
    },
  },
];
type TestApp = Awaited<ReturnType<typeof server>>['app'];
const quiet = { warn() {}, info() {} } as never;

/** A raw connection, and everything it received until the server closed it. */
async function rawConnection(port: number): Promise<{ socket: Socket; received: Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  let text = '';
  socket.on('data', (c: Buffer) => (text += c.toString()));
  const received = new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
  socket.on('error', () => {});
  return { socket, received };
}

for (const stopper of stoppers) {
  test(`${stopper.name}: a connection accepted before it began is answered when its request arrives after (a worker handed a connection as it stops)`, async () => {
    const { app } = await server([endpoint('GET /fast', () => json({ ok: true }))]);
    const served = await stopper.start(app);
    const accepted = new Promise((r) => served.server.once('connection', r));
    const { socket, received } = await rawConnection(served.port);
    await accepted;
    const stopped = served.stop(10_000);
    // On Node.js 26, http.Server.close() closes such a connection at once: the request was reset.
    await new Promise((r) => setTimeout(r, 100));
    socket.write('GET /fast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.match(await received, /^HTTP\/1\.1 200 .*\{"ok":true\}$/s);
    await stopped;
  });

  test(`${stopper.name}: a kept-alive connection is closed once idle; a silent one after its grace; neither holds the shutdown until the time-out`, async () => {
    const { arrived, arrive } = arrival();
    const { app } = await server([
      endpoint('GET /slow', () => {
        arrive();
        return slow(150);
      }),
    ]);
    const served = await stopper.start(app);
    let accepted = 0;
    served.server.on('connection', () => accepted++);
    const kept = await rawConnection(served.port);
    kept.socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    const spare = await rawConnection(served.port);
    await arrived;
    // The spare connection accepted too, so the shutdown has a silent connection to close.
    await until(() => accepted === 2);
    await served.stop(10_000);
    // The request under way at the shutdown was answered, on a connection kept alive, then closed.
    assert.match(await kept.received, /^HTTP\/1\.1 200 .*keep-alive.*\{"slept":150\}$/is);
    assert.equal(await spare.received, '');
  });
}
