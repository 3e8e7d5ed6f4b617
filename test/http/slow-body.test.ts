/**
 * Issue 15, class 6: slow requests are bounded, body included. The fixture (fixtures/slow-body)
 * declares `request_timeout = "1s"`; a client trickles its request a byte at a time and never stops.
 * Before, the body phase was not bounded at all (Fastify set Node's requestTimeout after the server
 * was built, which Node then applies to headers only) and the header phase only on Node's 30 s
 * tick. Now the server answers 408 within the time-out plus a tenth (Node's check interval) and
 * closes the connection a moment later, however long the client goes on sending.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { serveManifest, type ServedService } from './helpers.js';
import { sourceDir } from '../paths.js';

const FIXTURE = join(sourceDir(import.meta.url), 'fixtures', 'slow-body', 'api.hcl');
const TIMEOUT_MS = 1000;
/** The time-out, Node's check interval (a tenth of it) and scheduling slack on a loaded machine. */
const ANSWERED_BY_MS = TIMEOUT_MS * 1.1 + 700;
/** The answer, then one second for the client to read it before the socket is destroyed. */
const CLOSED_BY_MS = ANSWERED_BY_MS + 1000 + 500;

async function listening(t: { after: (f: () => Promise<void>) => void }): Promise<{ service: ServedService; port: number }> {
  const service = await serveManifest(readFileSync(FIXTURE, 'utf8'));
  t.after(() => service.close());
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  return { service, port: (service.app.server.address() as { port: number }).port };
}

interface Trickled {
  /** Milliseconds from the first byte sent to the first byte received. */
  readonly answeredMs: number;
  /** Milliseconds from the first byte sent to the server ending its side (-1: it never did). */
  readonly endedMs: number;
  /** Milliseconds from the first byte sent to the socket closing. */
  readonly closedMs: number;
  readonly received: string;
}

/** Sends `head`, then one byte of `drip` every `everyMs` until the server closes the socket. */
function trickle(port: number, head: string, drip: string, everyMs: number): Promise<Trickled> {
  return new Promise((resolve) => {
    const started = performance.now();
    let answeredMs = -1;
    let endedMs = -1;
    let received = '';
    // allowHalfOpen: the client does not close its side when the server closes its own.
    const socket: Socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.write(head));
    const timer = setInterval(() => {
      if (!socket.destroyed && socket.writable) socket.write(drip);
    }, everyMs);
    socket.on('data', (d) => {
      if (answeredMs < 0) answeredMs = performance.now() - started;
      received += d.toString('latin1');
    });
    // A client that goes on sending: it never ends its side, only the server can close.
    socket.on('end', () => {
      endedMs = performance.now() - started;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answeredMs, endedMs, closedMs: performance.now() - started, received });
    });
  });
}

function assertTimedOut(r: Trickled): void {
  assert.ok(r.answeredMs >= 0, 'an answer was sent');
  assert.ok(r.answeredMs >= TIMEOUT_MS * 0.9, `answered after ${r.answeredMs} ms, before the time-out`);
  assert.ok(r.answeredMs < ANSWERED_BY_MS, `answered after ${r.answeredMs} ms`);
  assert.ok(r.endedMs >= r.answeredMs, 'the server ended its side after answering');
  assert.ok(r.closedMs < CLOSED_BY_MS, `closed after ${r.closedMs} ms`);
  assert.match(r.received, /^HTTP\/1\.1 408 Request Timeout\r\n/);
  assert.match(r.received, /Content-Type: application\/problem\+json/);
  const body = JSON.parse(r.received.slice(r.received.indexOf('\r\n\r\n') + 4)) as { status: number };
  assert.equal(body.status, 408);
}

test('a body trickled a byte at a time is answered 408 within request_timeout and its connection closed', { timeout: 15_000 }, async (t) => {
  const { service, port } = await listening(t);
  const head = 'POST /notes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"text":"';
  assertTimedOut(await trickle(port, head, 'a', 100));
  // The request's log line says what the client got (the body read fails only as the socket closes).
  await new Promise((resolve) => setTimeout(resolve, 200));
  const lines = service.log.requests().map((l) => [l.method, l.url, l.status]);
  assert.deepEqual(lines, [['POST', '/notes', 408]]);
});

test('headers trickled a byte at a time are answered 408 within request_timeout, not on a 30 s tick', { timeout: 15_000 }, async (t) => {
  const { port } = await listening(t);
  assertTimedOut(await trickle(port, 'GET /notes HTTP/1.1\r\nHost: localhost\r\n', 'X', 100));
});

test('a request whose body arrives in time is served, on a connection that stays open', { timeout: 15_000 }, async (t) => {
  const { port } = await listening(t);
  const body = JSON.stringify({ text: 'hello' });
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`POST /notes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
      // Within the time-out, in pieces.
      setTimeout(() => socket.write(body.slice(0, 5)), 200);
      setTimeout(() => socket.write(body.slice(5)), 400);
    });
    let received = '';
    socket.on('data', (d) => {
      received += d.toString('latin1');
      if (received.includes('\r\n\r\n{')) {
        // Keep-alive: the connection is still open well after the answer.
        setTimeout(() => {
          assert.equal(socket.destroyed, false);
          socket.destroy();
          resolve(received);
        }, 1500);
      }
    });
    socket.on('error', reject);
  });
  assert.match(answer, /^HTTP\/1\.1 201 Created\r\n/);
  assert.match(answer, /\{"received":5\}$/);
});
