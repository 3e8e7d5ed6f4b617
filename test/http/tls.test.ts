/**
 * `server { tls { cert_file, key_file } }` and `server { h2c = true }` (docs/tls.md), as
 * a real `svc serve` process with a certificate made by openssl for the run: HTTP/2 by ALPN and
 * HTTP/1.1 beside it, validation, request ids and problems over HTTP/2, a trickled body answered 408,
 * a graceful shutdown that lets a stream in flight finish after the GOAWAY, a reload that serves a
 * renewed certificate to new connections while an open session goes on, a handshake of garbage and a
 * client resetting streams as fast as it can while another is served, and h2c by prior knowledge.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { constants } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { kill, serve, type Served } from '../cli/serve-helpers.js';
import { h2, h2Request, makeCertificate, until } from './tls-helpers.js';

const running: Served[] = [];
const dirs: string[] = [];
const held: ServerResponse[] = [];
let upstream: Server;
let upstreamUrl = '';

before(async () => {
  // Holds every request until the test answers it: a request in flight at shutdown.
  upstream = createServer((_req: IncomingMessage, res: ServerResponse) => void held.push(res));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

after(async () => {
  for (const served of running) kill(served);
  for (const res of held) res.destroy();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const ENDPOINTS = `
endpoint "GET /hello" {
  pipeline {
    respond {
      body = { ok = true }
    }
  }
}

endpoint "POST /items" {
  request {
    body {
      field "name" {
        type     = string
        required = true
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

endpoint "GET /slow" {
  pipeline {
    http "up" {
      url     = "UPSTREAM/hang"
      timeout = "60s"
    }
    respond {
      body = steps.up.body
    }
  }
}
`;

async function start(server: string, withCertificate = true): Promise<{ served: Served; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-tls-'));
  dirs.push(dir);
  if (withCertificate) {
    await mkdir(join(dir, 'tls'));
    makeCertificate(join(dir, 'tls'), 'first');
  }
  await writeFile(join(dir, 'main.hcl'), `server {\n${server}\n}\n${ENDPOINTS.replace('UPSTREAM', upstreamUrl)}`);
  const served = await serve(dir);
  running.push(served);
  return { served, dir };
}

const TLS = `
  request_timeout  = "2s"
  shutdown_timeout = "20s"
  tls {
    cert_file = "tls/cert.pem"
    key_file  = "tls/key.pem"
  }`;

/** The certificate's subject CN a fresh TLS connection is shown. */
function peerName(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false, ALPNProtocols: ['h2'] }, () => {
      const cn = socket.getPeerCertificate().subject.CN;
      socket.destroy();
      resolve(Array.isArray(cn) ? cn.join() : String(cn));
    });
    socket.once('error', reject);
  });
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

test('TLS: HTTP/2 by ALPN with validation, problems and request ids; HTTP/1.1 beside it', async () => {
  const { served } = await start(TLS);
  assert.match(served.url, /^https:\/\//);
  const session = await h2(served.url);
  try {
    assert.equal(session.alpnProtocol, 'h2');
    const hello = await h2Request(session, '/hello', 'GET', undefined, { 'x-request-id': 'trace-1' });
    assert.equal(hello.status, 200);
    assert.deepEqual(JSON.parse(hello.body), { ok: true });
    assert.equal(hello.headers['x-request-id'], 'trace-1');
    const created = await h2Request(session, '/items', 'POST', '{"name":"a"}', { 'content-type': 'application/json' });
    assert.equal(created.status, 201);
    assert.deepEqual(JSON.parse(created.body), { name: 'a' });
    const invalid = await h2Request(session, '/items', 'POST', '{}', { 'content-type': 'application/json' });
    assert.equal(invalid.status, 422);
    assert.match(String(invalid.headers['content-type']), /^application\/problem\+json/);
    assert.equal((JSON.parse(invalid.body) as { invalid_params: { name: string }[] }).invalid_params[0]!.name, 'name');
    const missing = await h2Request(session, '/nowhere');
    assert.equal(missing.status, 404);
    assert.match(String(missing.headers['content-type']), /^application\/problem\+json/);
    // Many streams at once on the one session.
    const answers = await Promise.all(Array.from({ length: 50 }, () => h2Request(session, '/hello')));
    assert.ok(answers.every((a) => a.status === 200));
  } finally {
    session.close();
  }
  // A client without HTTP/2 (node:https offers no ALPN) is served HTTP/1.1.
  const http1 = await new Promise<{ status: number; version: string; body: string }>((resolve, reject) => {
    const req = httpsRequest(`${served.url}/hello`, { rejectUnauthorized: false, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, version: res.httpVersion, body }));
    });
    req.on('error', reject);
    req.end();
  });
  assert.deepEqual(http1, { status: 200, version: '1.1', body: '{"ok":true}' });
});

test('TLS: an HTTP/2 body still arriving after request_timeout is answered 408 and its stream ended; the session serves on', async () => {
  const { served } = await start(TLS);
  const session = await h2(served.url);
  try {
    const stream = session.request({ ':method': 'POST', ':path': '/items', 'content-type': 'application/json' });
    stream.write('{"na');
    // The rest never comes.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      let status = 0;
      let body = '';
      stream.on('response', (h) => (status = Number(h[':status'])));
      stream.setEncoding('utf8');
      stream.on('data', (c: string) => (body += c));
      stream.on('close', () => resolve({ status, body }));
      stream.on('error', reject);
    });
    assert.equal(answer.status, 408);
    assert.equal((JSON.parse(answer.body) as { status: number }).status, 408);
    assert.equal((await h2Request(session, '/hello')).status, 200);
  } finally {
    session.close();
  }
});

test('TLS: an HTTP/1.1 body still arriving after request_timeout is answered 408, as on the cleartext server', async () => {
  const { served } = await start(TLS);
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpsRequest(
      `${served.url}/items`,
      { method: 'POST', rejectUnauthorized: false, agent: false, headers: { 'content-type': 'application/json', 'content-length': '100' } },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    // A part of the body, and the rest never.
    req.write('{"na');
  });
  assert.equal(answer.status, 408);
  assert.equal((JSON.parse(answer.body) as { status: number }).status, 408);
});

test('TLS: on SIGTERM, a GOAWAY; the stream in flight finishes, then the process exits 0', async () => {
  const { served } = await start(TLS);
  const session = await h2(served.url);
  let goaway = false;
  session.on('goaway', () => (goaway = true));
  session.on('error', () => {});
  const before = held.length;
  const inFlight = h2Request(session, '/slow');
  await until(() => held.length > before, 'the request reached the upstream');
  served.child.kill('SIGTERM');
  await until(() => goaway, 'the session got a GOAWAY');
  const res = held[held.length - 1]!;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"late":true}');
  const answer = await inFlight;
  assert.equal(answer.status, 200);
  assert.deepEqual(JSON.parse(answer.body), { late: true });
  const exit = await served.exited;
  assert.equal(exit.code, 0);
});

test('TLS: a reload (SIGHUP) serves a renewed certificate to new connections; an open session goes on', async () => {
  const { served, dir } = await start(TLS);
  const port = portOf(served.url);
  assert.equal(await peerName(port), 'first');
  const session = await h2(served.url);
  try {
    assert.equal((await h2Request(session, '/hello')).status, 200);
    makeCertificate(join(dir, 'tls'), 'renewed');
    served.child.kill('SIGHUP');
    await served.waitFor(/reloaded/);
    assert.equal(await peerName(port), 'renewed');
    assert.equal((await h2Request(session, '/hello')).status, 200);
    assert.ok(!session.destroyed && !session.closed);
  } finally {
    session.close();
  }
  // Log lines are batched: the line comes with the next flush.
  await until(() => /TLS certificate renewed/.test(served.stdout()), 'the renewal was logged');
});

test('TLS: a handshake of garbage and a client resetting streams as fast as it can; another client is served throughout', async (t) => {
  const { served } = await start(TLS);
  const port = portOf(served.url);
  const linesBefore = served.stdout().split('\n').length;
  // Garbage where a ClientHello should be.
  await new Promise<void>((resolve) => {
    const socket = netConnect(port, '127.0.0.1', () => socket.end(Buffer.alloc(4096, 0x47)));
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
    socket.resume();
  });
  // Rapid reset, as the attack does it: raw frames, each HEADERS followed by its RST_STREAM in the
  // same write (a client library would not send a stream cancelled before its HEADERS left). Node's
  // HTTP/2 layer (nghttp2's reset rate limit) closes the connection.
  const attack = await rapidReset(port, 20_000);
  t.diagnostic(`streams opened and reset before the server closed the connection: ${attack.opened}`);
  assert.ok(attack.closed, `the server let ${attack.opened} streams be opened and reset`);
  const other = await h2(served.url);
  try {
    const answers = await Promise.all(Array.from({ length: 20 }, () => h2Request(other, '/hello')));
    assert.ok(answers.every((a) => a.status === 200));
  } finally {
    other.close();
  }
  assert.ok(served.child.exitCode === null, 'the server is still running');
  // Neither the garbage nor the resets wrote a warning or an error.
  const lines = served
    .stdout()
    .split('\n')
    .slice(linesBefore - 1)
    .filter((l) => l.includes('"level":50') || l.includes('"level":40'));
  assert.deepEqual(lines, []);
});

/**
 * Opens `max` streams on one TLS connection, each HEADERS (GET /, ending the stream) followed at once by
 * RST_STREAM (CANCEL), 100 pairs per write, until the server closes the connection.
 */
function rapidReset(port: number, max: number): Promise<{ opened: number; closed: boolean }> {
  const frame = (type: number, flags: number, id: number, payload: Buffer): Buffer => {
    const head = Buffer.alloc(9);
    head.writeUIntBE(payload.length, 0, 3);
    head[3] = type;
    head[4] = flags;
    head.writeUInt32BE(id, 5);
    return Buffer.concat([head, payload]);
  };
  // HPACK static table: :method GET, :path /, :scheme https.
  const headers = Buffer.from([0x82, 0x84, 0x87]);
  const cancel = Buffer.from([0, 0, 0, constants.NGHTTP2_CANCEL]);
  return new Promise((resolve) => {
    let opened = 0;
    const socket = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false, ALPNProtocols: ['h2'] }, () => {
      socket.write(Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), frame(0x4, 0, 0, Buffer.alloc(0))]));
      const burst = (): void => {
        if (socket.destroyed || opened >= max) return;
        const frames: Buffer[] = [];
        for (let i = 0; i < 100 && opened < max; i++, opened++) {
          const id = 2 * opened + 1;
          frames.push(frame(0x1, 0x5, id, headers), frame(0x3, 0, id, cancel));
        }
        socket.write(Buffer.concat(frames), () => setImmediate(burst));
      };
      burst();
    });
    // What the server sends is read and dropped.
    socket.resume();
    socket.on('error', () => {});
    socket.on('close', () => resolve({ opened, closed: opened < max }));
    // Liveness bound: a server that never closes it is the failure reported.
    setTimeout(() => socket.destroy(), 20_000).unref();
  });
}

test('h2c: cleartext HTTP/2 by prior knowledge', async () => {
  const { served } = await start('  h2c = true', false);
  assert.match(served.url, /^http:\/\//);
  const session = await h2(served.url);
  try {
    const hello = await h2Request(session, '/hello');
    assert.equal(hello.status, 200);
    assert.deepEqual(JSON.parse(hello.body), { ok: true });
    const invalid = await h2Request(session, '/items', 'POST', '[]', { 'content-type': 'application/json' });
    assert.equal(invalid.status, 422);
  } finally {
    session.close();
  }
});
