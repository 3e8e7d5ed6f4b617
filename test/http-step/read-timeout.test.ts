/**
 * `read_timeout` of an http step with `stream = true` (issue 35): an upstream that sends part of its
 * body and goes silent is cut once the reader has waited that long for the next piece. Served on a
 * real port in front of a real upstream on loopback; judged by what happened (the client's transfer
 * cut short or a 504, the upstream's socket closed, the log line), not by how long it took.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { fetchAll, listenLocal, until } from '../http/stream-helpers.js';
import { bootErrors, serve, upstream, type Served, type Upstream } from './helpers.js';

const PART = 'x'.repeat(64 * 1024);

/** The upstream's sockets by path, to see them closed. */
const sockets = new Map<string, Socket>();

/**
 * `/silent-after-part`: a head and 64 KiB, then nothing, never an end. `/silent-after-head`: a head
 * announcing a body, then nothing. `/steady`: 20 pieces 10 ms apart, then the end.
 */
function route(req: IncomingMessage, res: ServerResponse): void {
  sockets.set(req.url!, req.socket);
  switch (req.url) {
    case '/silent-after-part':
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write(PART);
      return;
    case '/silent-after-head':
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      res.flushHeaders();
      return;
    case '/steady': {
      res.writeHead(200, { 'content-type': 'text/plain' });
      let n = 0;
      const timer = setInterval(() => {
        res.write(`piece ${++n}\n`);
        if (n === 20) {
          clearInterval(timer);
          res.end();
        }
      }, 10);
      res.on('close', () => clearInterval(timer));
      return;
    }
  }
}

const MANIFEST = `
endpoint "GET /cut/{path}" {
  request {
    path {
      field "path" {
        type = string
      }
    }
  }
  pipeline {
    http "up" {
      url          = "{{UPSTREAM}}/\${ctx.request.path.path}"
      stream       = true
      timeout      = "10s"
      read_timeout = "300ms"
    }
    stream "raw" {
      source = steps.up.stream
    }
  }
}

endpoint "GET /patient/{path}" {
  request {
    path {
      field "path" {
        type = string
      }
    }
  }
  pipeline {
    http "up" {
      url          = "{{UPSTREAM}}/\${ctx.request.path.path}"
      stream       = true
      read_timeout = "10s"
    }
    stream "raw" {
      source = steps.up.stream
    }
  }
}
`;

let up: Upstream;
let svc: Served;
let base: string;

before(async () => {
  up = await upstream(route);
  svc = await serve(MANIFEST, up.url);
  base = await listenLocal(svc.app);
});

after(async () => {
  await svc?.close();
  await up?.close();
});

async function logLineOf(url: string): Promise<Record<string, unknown>> {
  await until(() => svc.log.requests().some((l) => l.url === url), 10_000);
  return svc.log.requests().find((l) => l.url === url)!;
}

/** Resolves once `socket` has closed. */
async function closed(socket: Socket | undefined): Promise<void> {
  assert.ok(socket, 'the upstream got the request');
  if (!socket.destroyed) await new Promise((resolve) => socket.once('close', resolve));
}

test('an upstream silent after part of its body: the client gets that part and a transfer cut short; the upstream connection is closed', async () => {
  const got = await fetchAll(`${base}/cut/silent-after-part`);
  assert.equal(got.status, 200, 'the head went out with the first bytes');
  assert.equal(got.complete, false, 'a truncated transfer, never a complete one');
  assert.equal(got.body, PART);
  await closed(sockets.get('/silent-after-part'));
  const line = await logLineOf('/cut/silent-after-part');
  assert.deepEqual(line.stream, { format: 'raw', items: (line.stream as { items: number }).items, bytes: PART.length, ended: 'source failed' });
  assert.match((line.err as { message: string }).message, /sent nothing more of its body for 300 ms \(read_timeout\)/);
});

test('an upstream silent after its head: a 504 problem, nothing streamed; the upstream connection is closed', async () => {
  const got = await fetchAll(`${base}/cut/silent-after-head`);
  assert.equal(got.status, 504);
  assert.equal(got.complete, true);
  assert.match(String(got.headers['content-type']), /^application\/problem\+json/);
  assert.equal((JSON.parse(got.body) as { type: string }).type, 'urn:svc:error:timeout');
  await closed(sockets.get('/silent-after-head'));
  const line = await logLineOf('/cut/silent-after-head');
  assert.match((line.err as { message: string }).message, /read_timeout/);
});

test('the clock restarts with each piece: a body that keeps coming is streamed whole', async () => {
  const got = await fetchAll(`${base}/patient/steady`);
  assert.equal(got.status, 200);
  assert.equal(got.complete, true);
  assert.equal(got.body, Array.from({ length: 20 }, (_, i) => `piece ${i + 1}\n`).join(''));
});

test('read_timeout is a duration, and applies with stream = true only', () => {
  const step = (attrs: string): string => `
endpoint "GET /x" {
  pipeline {
    http "up" {
      url = "http://127.0.0.1:9/x"
      ${attrs}
    }
    respond {
      body = steps.up.status
    }
  }
}
`;
  assert.deepEqual(
    bootErrors(step('read_timeout = "0s"\nstream = true')).map((d) => d.summary),
    ['Invalid duration'],
  );
  assert.deepEqual(
    bootErrors(step('read_timeout = "soon"\nstream = true')).map((d) => d.summary),
    ['Invalid duration'],
  );
  const without = bootErrors(step('read_timeout = "5s"'));
  assert.deepEqual(
    without.map((d) => d.summary),
    ['Unsupported argument'],
  );
  assert.match(without[0]!.detail ?? '', /stream = true/);
});
