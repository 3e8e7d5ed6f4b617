/**
 * A client that goes away cancels the outbound call: svc listens on a real port, the upstream holds
 * the request, the client closes its socket, and the upstream sees its own connection close (within
 * a second: the event is awaited, the second is only the bound of the wait).
 */
import assert from 'node:assert/strict';
import { request, type IncomingMessage } from 'node:http';
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { serve, upstream, within, type Served, type Upstream } from './helpers.js';

const MANIFEST = `
endpoint "GET /slow" {
  pipeline {
    http "up" {
      url     = "{{UPSTREAM}}/slow"
      timeout = "30s"
    }
    respond {
      body = steps.up
    }
  }
}

endpoint "GET /both" {
  pipeline {
    parallel {
      http "slow" {
        url     = "{{UPSTREAM}}/slow"
        timeout = "30s"
      }
      http "broken" {
        url = "http://127.0.0.1:{{CLOSED_PORT}}/"
      }
    }
    respond {
      body = steps.slow
    }
  }
}
`;

let up: Upstream;
let svc: Served;
let port: number;
const arrived: IncomingMessage[] = [];

before(async () => {
  // Holds every request: answers nothing, so only a cancellation can end it.
  up = await upstream((req) => {
    arrived.push(req);
    up.events.emit('request', req);
  });
  // A port nobody listens on any more: connecting to it is refused.
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  svc = await serve(MANIFEST.replaceAll('{{CLOSED_PORT}}', String(closedPort)), up.url);
  await svc.app.listen({ host: '127.0.0.1', port: 0 });
  port = (svc.app.server.address() as AddressInfo).port;
});

after(async () => {
  await svc?.close();
  await up?.close();
});

test('a client disconnect closes the upstream connection of its request', async () => {
  const upstreamRequest = within<[IncomingMessage]>(up.events, 'request', 5_000, 'the upstream request');
  const client = request({ host: '127.0.0.1', port, path: '/slow', method: 'GET' });
  client.on('error', () => {}); // the socket is destroyed on purpose
  client.end();
  const [req] = await upstreamRequest;
  const closed = within(req.socket, 'close', 1_000, 'the upstream socket after the client left');
  client.destroy();
  await closed;
  // The log line of the request says the client closed it (499, nothing sent).
  for (let i = 0; i < 50 && !svc.log.requests().some((l) => l.url === '/slow'); i++) await new Promise((r) => setTimeout(r, 10));
  const line = svc.log.requests().find((l) => l.url === '/slow');
  assert.equal(line?.status, 499);
});

test('several clients leaving at once each close their own upstream connection', async () => {
  const count = 5;
  const before = arrived.length;
  const clients = Array.from({ length: count }, () => {
    const client = request({ host: '127.0.0.1', port, path: '/slow', method: 'GET' });
    client.on('error', () => {});
    client.end();
    return client;
  });
  while (arrived.length < before + count) await within(up.events, 'request', 5_000, 'the upstream requests');
  const sockets = arrived.slice(before).map((req) => req.socket);
  const closed = Promise.all(sockets.map((s) => within(s, 'close', 1_000, 'an upstream socket')));
  for (const client of clients) client.destroy();
  await closed;
  assert.equal(up.open.size, 0);
});

test('a parallel sibling that fails (refused: 502) cancels the other branch, whose upstream socket closes', async () => {
  // The slow branch may or may not reach its upstream before the refusal cancels it; if it does,
  // its socket's close is watched from the moment the request arrives.
  let closed: Promise<unknown> | undefined;
  const onRequest = (req: IncomingMessage): void => {
    closed = within(req.socket, 'close', 1_000, 'the slow branch upstream socket');
  };
  up.events.once('request', onRequest);
  const res = await svc.app.inject({ method: 'GET', url: '/both' });
  assert.equal(res.statusCode, 502);
  assert.equal(res.json().step, 'broken');
  up.events.off('request', onRequest);
  await closed;
});
