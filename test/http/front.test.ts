/**
 * `svc serve`'s front server retiring an app (front.ts): on a reload (`swap`) and on a shutdown
 * (`shutdownFront`), every response the retired app was serving is waited for before it is closed,
 * including the ones it cannot see on a connection when the retirement begins.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { createFront, listenFront, shutdownFront } from '../../src/http/index.js';
import type { EndpointResult } from '../../src/steps/index.js';
import { endpoint, json, pendingOf, server } from './helpers.js';

const quiet = { warn() {}, info() {} } as never;

/** A raw keep-alive connection, and every byte it receives until it closes. */
async function rawConnection(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  let text = '';
  socket.on('data', (c: Buffer) => (text += c.toString()));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => text, closed };
}

/**
 * An app whose `GET /slow?ms=N` answers `{app, ms}` after N ms, noting in `started` when each request
 * reaches it and in `written` when each answer is handed over.
 */
async function slowApp(name: string, written: string[], started: string[] = []) {
  const { app } = await server([
    endpoint('GET /slow', (ctx) => {
      const ms = Number((ctx.request.query as Record<string, string>).ms);
      started.push(`${name}:${ms}`);
      return pendingOf(
        new Promise<EndpointResult>((resolve) =>
          setTimeout(() => {
            written.push(`${name}:${ms}`);
            resolve(json({ app: name, ms }));
          }, ms),
        ),
      );
    }),
  ]);
  return app;
}

/** Resolves once `check()` holds; fails the test if it does not within 5 s. */
function waitUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      if (check()) resolve();
      else if (Date.now() > deadline) reject(new assert.AssertionError({ message: `not within 5 s: ${what}` }));
      else return;
      clearInterval(poll);
    }, 5);
  });
}

test('swap: the previous app is closed only after a pipelined request it was routed finished', async () => {
  const written: string[] = [];
  const started: string[] = [];
  const first = await slowApp('first', written, started);
  noteClose(first, written);
  const front = createFront({ requestTimeoutMs: 30_000, app: first });
  const { port } = await listenFront(front, { host: '127.0.0.1', port: 0 });
  try {
    const connection = await rawConnection(port);
    // Two requests in one write: the second waits behind the first for the connection, so when the
    // swap begins only the first is the response the connection is writing.
    connection.socket.write('GET /slow?ms=100 HTTP/1.1\r\nHost: x\r\n\r\nGET /slow?ms=300 HTTP/1.1\r\nHost: x\r\n\r\n');
    // Both routed to the first app before the swap (on a loaded machine they may take longer than
    // any fixed wait to arrive).
    await waitUntil(() => started.length === 2, 'both requests reach the first app');
    assert.deepEqual(started, ['first:100', 'first:300']);
    const second = await slowApp('second', written);
    await front.swap(second, { drainTimeoutMs: 10_000, logger: quiet });
    assert.deepEqual(written, ['first:100', 'first:300', 'closed'], 'the swap waited for both answers of the previous app');
    await waitUntil(() => connection.received().includes('"ms":300'), 'the second answer on the connection');
    assert.match(connection.received(), /\{"app":"first","ms":100\}.*\{"app":"first","ms":300\}/s);
    // The same connection's next request goes to the new app.
    connection.socket.write('GET /slow?ms=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await connection.closed;
    assert.match(connection.received(), /\{"app":"second","ms":1\}$/);
  } finally {
    await shutdownFront(front, { shutdownTimeoutMs: 1_000, logger: quiet });
  }
});

test('shutdownFront: a request that arrives after the shutdown began is answered before the app is closed', async () => {
  const written: string[] = [];
  const started: string[] = [];
  const app = await slowApp('only', written, started);
  noteClose(app, written);
  const front = createFront({ requestTimeoutMs: 30_000, app });
  const { port } = await listenFront(front, { host: '127.0.0.1', port: 0 });
  let accepted = 0;
  front.server.on('connection', () => accepted++);
  const busy = await rawConnection(port);
  busy.socket.write('GET /slow?ms=300 HTTP/1.1\r\nHost: x\r\n\r\n');
  // Connected, no request yet: a shutdown gives it a grace period to send one.
  const late = await rawConnection(port);
  // The busy request under way and both connections accepted (not left in the listen backlog, which
  // the shutdown's closing of the listener would reset) before the shutdown begins.
  await waitUntil(() => started.length === 1 && accepted === 2, 'the busy request under way, both connections accepted');
  const stopped = shutdownFront(front, { shutdownTimeoutMs: 10_000, logger: quiet });
  await new Promise((r) => setTimeout(r, 50));
  // Routed to the app being retired; the busy connection's request keeps the retirement open.
  late.socket.write('GET /slow?ms=400 HTTP/1.1\r\nHost: x\r\n\r\n');
  await stopped;
  assert.deepEqual(written, ['only:300', 'only:400', 'closed']);
  await Promise.all([busy.closed, late.closed]);
  assert.match(busy.received(), /\{"app":"only","ms":300\}$/);
  assert.match(late.received(), /\{"app":"only","ms":400\}$/);
});

/** Notes in `written` when the app is closed. */
function noteClose(app: Awaited<ReturnType<typeof slowApp>>, written: string[]): void {
  const close = app.close.bind(app);
  app.close = (() => {
    written.push('closed');
    return close();
  }) as typeof app.close;
}

test('a request the server cuts is logged as cut by it (a reload: 503, cancelled "reload"); one whose client left stays a 499', async () => {
  const started: string[] = [];
  const { app: first, log } = await server([
    endpoint('GET /never', () => {
      started.push('never');
      return pendingOf(new Promise<EndpointResult>(() => {}));
    }),
  ]);
  const front = createFront({ requestTimeoutMs: 30_000, app: first });
  const { port } = await listenFront(front, { host: '127.0.0.1', port: 0 });
  try {
    const left = await rawConnection(port);
    left.socket.write('GET /never?who=left HTTP/1.1\r\nHost: x\r\n\r\n');
    await waitUntil(() => started.length === 1, 'the first request reaches the app');
    left.socket.destroy();
    await waitUntil(() => log.requests().length === 1, 'the line of the client that left');
    assert.equal(log.requests()[0]!.status, 499);
    assert.equal(log.requests()[0]!.cancelled, 'client closed');

    const cut = await rawConnection(port);
    cut.socket.write('GET /never?who=cut HTTP/1.1\r\nHost: x\r\n\r\n');
    await waitUntil(() => started.length === 2, 'the second request reaches the app');
    const second = await slowApp('second', []);
    await front.swap(second, { drainTimeoutMs: 50, logger: quiet });
    await cut.closed;
    assert.equal(cut.received(), '', 'the connection is closed without an answer');
    await waitUntil(() => log.requests().length === 2, 'the line of the cut request');
    const line = log.requests()[1]!;
    assert.equal(line.url, '/never?who=cut');
    assert.equal(line.status, 503);
    assert.equal(line.cancelled, 'reload');
  } finally {
    await shutdownFront(front, { shutdownTimeoutMs: 1_000, logger: quiet });
  }
});
