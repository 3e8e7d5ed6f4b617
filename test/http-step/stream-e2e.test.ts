/**
 * A streaming proxy end to end (SPEC.md §4.3): an `http` step with `stream = true` whose body a
 * `stream "raw"` step pipes to the client, served on a real port in front of a real upstream on
 * loopback. The body arrives byte for byte with the upstream's media type (the stream step's
 * `content_type`, or its `headers` computed from the upstream's); a client that leaves closes the
 * upstream connection (seen from the upstream's side); an upstream that fails mid-body is a transfer
 * cut short, never a complete response; one that fails before its first body byte, or refuses the
 * connection, is an ordinary 502 problem with nothing streamed.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:net';
import type { Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { fetchAll, listenLocal, open, readUntil, until } from '../http/stream-helpers.js';
import { serve, upstream, within, type Served, type Upstream } from './helpers.js';

/** 3 MiB and a bit, every byte value, not a multiple of any chunk size: framing and encoding would show. */
const BINARY = randomBytes(3 * 1024 * 1024 + 17);
const MEDIA_TYPE = 'application/vnd.example.archive';

/**
 * `/binary`: BINARY with MEDIA_TYPE and a Content-Length. `/chunked`: the same in chunked coding.
 * `/trickle`: a line every 20 ms, for ever.
 * `/broken`: half of BINARY in chunks, then the connection reset. `/headless`: a head announcing a
 * body, then the connection reset before any of it. `/missing`: a 404 with a short body.
 */
function route(req: IncomingMessage, res: ServerResponse): void {
  up.events.emit('request', req);
  switch (req.url) {
    case '/binary':
      res.writeHead(200, { 'content-type': MEDIA_TYPE, 'content-length': String(BINARY.length), 'x-archive': 'yes' });
      res.end(BINARY);
      return;
    case '/trickle': {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      let n = 0;
      const timer = setInterval(() => res.write(`tick ${++n}\n`), 20);
      res.on('close', () => clearInterval(timer));
      return;
    }
    case '/broken': {
      res.writeHead(200, { 'content-type': MEDIA_TYPE, 'content-length': String(BINARY.length) });
      const half = BINARY.length / 2;
      let sent = 0;
      const step = 64 * 1024;
      const timer = setInterval(() => {
        const end = Math.min(sent + step, half);
        res.write(BINARY.subarray(sent, end));
        sent = end;
        if (sent >= half) {
          clearInterval(timer);
          // After a moment, so what was written is on its way before the reset.
          setTimeout(() => req.socket.resetAndDestroy(), 50);
        }
      }, 2);
      return;
    }
    case '/headless':
      res.writeHead(200, { 'content-type': MEDIA_TYPE, 'content-length': '1000' });
      res.flushHeaders();
      setTimeout(() => req.socket.resetAndDestroy(), 50);
      return;
    case '/chunked': {
      // No Content-Length: chunked coding, in pieces that straddle the socket's reads.
      res.writeHead(200, { 'content-type': MEDIA_TYPE });
      let sent = 0;
      const write = (): void => {
        while (sent < BINARY.length) {
          const end = Math.min(sent + 40_000 + (sent % 7), BINARY.length);
          const more = res.write(BINARY.subarray(sent, end));
          sent = end;
          if (!more) {
            res.once('drain', write);
            return;
          }
        }
        res.end();
      };
      write();
      return;
    }
    case '/missing':
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such file');
      return;
  }
}

const MANIFEST = `
endpoint "GET /typed/{path}" {
  request {
    path {
      field "path" {
        type = string
      }
    }
  }
  pipeline {
    http "up" {
      url     = "{{UPSTREAM}}/\${ctx.request.path.path}"
      stream  = true
      timeout = "2s"
    }
    respond {
      condition = steps.up.status != 200
      body      = problem(502, "Upstream failed", "The upstream answered \${steps.up.status}")
    }
    stream "raw" {
      source       = steps.up.stream
      content_type = "${MEDIA_TYPE}"
    }
  }
}

endpoint "GET /passed/{path}" {
  request {
    path {
      field "path" {
        type = string
      }
    }
  }
  pipeline {
    http "up" {
      url     = "{{UPSTREAM}}/\${ctx.request.path.path}"
      stream  = true
      timeout = "2s"
    }
    stream "raw" {
      source  = steps.up.stream
      headers = {
        "Content-Type" = lookup(steps.up.headers, "content-type", "application/octet-stream")
        "X-Archive"    = lookup(steps.up.headers, "x-archive", null)
      }
    }
  }
}

endpoint "GET /refused" {
  pipeline {
    http "up" {
      url    = "{{REFUSED}}/binary"
      stream = true
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
  // A port nobody listens on any more: connecting to it is refused.
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const refused = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
  await new Promise<void>((ok) => probe.close(() => ok()));
  svc = await serve(MANIFEST.replaceAll('{{REFUSED}}', refused), up.url);
  base = await listenLocal(svc.app);
});

after(async () => {
  await svc?.close();
  await up?.close();
});

/** GETs `url` and keeps the body as bytes, the raw header lines, and whether the transfer completed. */
function fetchBytes(url: string): Promise<{ status: number; rawHeaders: string[]; body: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    void open(url).then((res) => {
      const chunks: Buffer[] = [];
      const done = (complete: boolean): void => resolve({ status: res.statusCode!, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks), complete });
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(true));
      res.on('aborted', () => done(false));
      res.on('error', () => done(false));
    }, reject);
  });
}

/** Every value of header `name` in raw header lines (a repeated field shows as several). */
function headerValues(rawHeaders: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) values.push(rawHeaders[i + 1]!);
  return values;
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** The request log line of `url`, once written (when the stream has ended). */
async function logLineOf(url: string): Promise<Record<string, unknown>> {
  await until(() => svc.log.requests().some((l) => l.url === url));
  return svc.log.requests().find((l) => l.url === url)!;
}

/** A complete 200 whose body is BINARY, byte for byte. */
function assertWholeBinary(got: Awaited<ReturnType<typeof fetchBytes>>): void {
  assert.equal(got.status, 200);
  assert.equal(got.complete, true);
  assert.equal(got.body.length, BINARY.length);
  assert.equal(sha256(got.body), sha256(BINARY));
}

test("the upstream body arrives byte for byte, with the media type of the step's content_type", async () => {
  const got = await fetchBytes(`${base}/typed/binary`);
  assertWholeBinary(got);
  assert.deepEqual(headerValues(got.rawHeaders, 'content-type'), [MEDIA_TYPE]);
  // Streamed as it comes: chunked, not a Content-Length computed from a body held in memory.
  assert.deepEqual(headerValues(got.rawHeaders, 'transfer-encoding'), ['chunked']);
  const line = await logLineOf('/typed/binary');
  assert.equal(line.status, 200);
  // Items of a raw stream are the body's chunks, as many as the sockets on the way made of it.
  const { items, ...rest } = line.stream as { items: number };
  assert.ok(items >= 1);
  assert.deepEqual(rest, { format: 'raw', bytes: BINARY.length, ended: 'complete' });
});

test('an upstream body in chunked coding arrives byte for byte', async () => {
  assertWholeBinary(await fetchBytes(`${base}/typed/chunked`));
});

// HTTP field names are case-insensitive: a step header spelt "Content-Type" replaces the default.
test("headers computed from the upstream's: its Content-Type replaces the default (one field, not two), X-Archive passed on", async () => {
  const got = await fetchBytes(`${base}/passed/binary`);
  assertWholeBinary(got);
  assert.deepEqual(headerValues(got.rawHeaders, 'x-archive'), ['yes']);
  assert.deepEqual(headerValues(got.rawHeaders, 'content-type'), [MEDIA_TYPE]);
});

test('an upstream error status is an ordinary problem answer, sent before any byte of its body', async () => {
  const got = await fetchAll(`${base}/typed/missing`);
  assert.equal(got.status, 502);
  assert.match(String(got.headers['content-type']), /^application\/problem\+json/);
  assert.equal((JSON.parse(got.body) as { detail: string }).detail, 'The upstream answered 404');
});

test('a client that leaves a trickling body: the upstream sees its socket closed within a second', async () => {
  const arrived = within<[IncomingMessage]>(up.events, 'request', 5_000, 'the upstream request');
  const res = await open(`${base}/typed/trickle`);
  const [req] = await arrived;
  const upstreamSocket: Socket = req.socket;
  assert.equal(res.statusCode, 200);
  await readUntil(res, 'tick 3\n');
  const closed = within(upstreamSocket, 'close', 1_000, 'the upstream socket after the client left');
  const left = performance.now();
  res.destroy();
  await closed;
  const ms = performance.now() - left;
  assert.ok(ms < 1_000, `closed after ${ms.toFixed(0)} ms`);
  const line = await logLineOf('/typed/trickle');
  assert.equal((line.stream as { ended: string }).ended, 'client closed');
});

test('an upstream that fails mid-body: the client gets what was sent and a transfer cut short, never a complete one', async () => {
  const got = await fetchBytes(`${base}/typed/broken`);
  assert.equal(got.status, 200, 'the head went out with the first bytes');
  assert.equal(got.complete, false, 'the transfer must not look complete');
  assert.ok(got.body.length > 0 && got.body.length <= BINARY.length / 2, `received ${got.body.length} bytes`);
  assert.ok(got.body.equals(BINARY.subarray(0, got.body.length)), 'what arrived is the beginning of the body, unaltered');
  const line = await logLineOf('/typed/broken');
  assert.equal((line.stream as { ended: string }).ended, 'source failed');
});

test('an upstream that fails before its first body byte: a 502 problem, nothing streamed', async () => {
  const got = await fetchAll(`${base}/typed/headless`);
  assert.equal(got.status, 502);
  assert.equal(got.complete, true);
  assert.match(String(got.headers['content-type']), /^application\/problem\+json/);
  const problem = JSON.parse(got.body) as { type: string; step: string };
  assert.equal(problem.type, 'urn:svc:error:bad-gateway');
});

test('an upstream that refuses the connection: a 502 problem before any byte', async () => {
  const got = await fetchAll(`${base}/refused`);
  assert.equal(got.status, 502);
  assert.equal(got.complete, true);
  assert.match(String(got.headers['content-type']), /^application\/problem\+json/);
  assert.equal(got.headers['transfer-encoding'], undefined, 'an ordinary answer, not a stream');
  const problem = JSON.parse(got.body) as { type: string; step: string };
  assert.equal(problem.type, 'urn:svc:error:bad-gateway');
  assert.equal(problem.step, 'up');
});
