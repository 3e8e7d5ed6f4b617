/**
 * Streams over HTTP/2 with TLS (docs/tls.md), as a real `svc serve` process: ten SSE
 * streams on one session all receive a published event, with heartbeats between; an export whose
 * client never reads is held by HTTP/2 flow control (the server reads no more rows than the windows
 * take, and its memory stays far below the export's size); `--workers 2` serves HTTPS with HTTP/2.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { ClientHttp2Stream } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kill, serve, type Served } from '../cli/serve-helpers.js';
import { h2, h2Request, makeCertificate, until } from './tls-helpers.js';

const running: Served[] = [];
const dirs: string[] = [];

after(async () => {
  for (const served of running) kill(served);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** Rows of the export: about 60 MB of ndjson in all. */
const EXPORT_ROWS = 200_000;

const MANIFEST = `
server {
  tls {
    cert_file = "tls/cert.pem"
    key_file  = "tls/key.pem"
  }
}

connection "redis" "feed" {
  url = "memory:"
}

# A directory, not memory: what the engine writes aside (sort and temporary files) goes to disk, so
# the server's resident memory measures svc's hold on the export, not PGlite's files.
connection "postgres" "db" {
  url = "pglite:.data"
}

endpoint "GET /events" {
  pipeline {
    redis "feed" {
      connection = connection.redis.feed
      command    = "SUBSCRIBE"
      channel    = "feed"
    }
    stream "sse" {
      source    = steps.feed.stream
      event     = "posted"
      heartbeat = "1s"
    }
  }
}

endpoint "POST /events" {
  request {
    body {
      field "text" {
        type     = string
        required = true
      }
    }
  }
  pipeline {
    redis "announce" {
      connection = connection.redis.feed
      command    = "PUBLISH"
      channel    = "feed"
      value      = { text = ctx.request.body.text }
    }
    respond {
      status = 202
      body   = { ok = true }
    }
  }
}

endpoint "GET /export.ndjson" {
  request {
    query {
      field "rows" {
        type    = int
        default = ${EXPORT_ROWS}
      }
    }
  }
  pipeline {
    # The set-returning function in the select list, where PostgreSQL produces its rows one at a
    # time; in FROM it would materialize all of them at the first fetch.
    sql "rows" {
      connection = connection.postgres.db
      query      = "SELECT generate_series(1, @rows) AS i, repeat('x', 250) AS pad"
      args       = { rows = ctx.request.query.rows }
      stream     = true
    }
    stream "ndjson" {
      source = steps.rows.stream
    }
  }
}

endpoint "GET /hello" {
  pipeline {
    respond {
      body = { pid = "served" }
    }
  }
}
`;

/** In-process stores are refused with several workers: the workers test serves the TLS block and /hello alone. */
const WORKERS_MANIFEST = `${MANIFEST.slice(0, MANIFEST.indexOf('connection "redis"'))}${MANIFEST.slice(MANIFEST.indexOf('endpoint "GET /hello"'))}`;

async function start(args: readonly string[] = [], manifest = MANIFEST): Promise<Served> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-tls-streams-'));
  dirs.push(dir);
  await mkdir(join(dir, 'tls'));
  makeCertificate(join(dir, 'tls'), 'streams');
  await writeFile(join(dir, 'main.hcl'), manifest);
  const served = await serve(dir, args);
  running.push(served);
  return served;
}

/** The resident memory of process `pid`, in bytes (Linux). */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
}

test('TLS + HTTP/2: ten SSE streams on one session each receive the published event, with heartbeats', async () => {
  const served = await start();
  const session = await h2(served.url);
  try {
    const texts: string[] = [];
    const streams: ClientHttp2Stream[] = [];
    for (let i = 0; i < 10; i++) {
      const stream = session.request({ ':path': '/events', accept: 'text/event-stream' });
      texts.push('');
      stream.setEncoding('utf8');
      stream.on('data', (c: string) => (texts[i] += c));
      stream.on('error', () => {});
      streams.push(stream);
    }
    // Subscribed once every head has arrived (the head goes out once the subscription is on).
    await Promise.all(streams.map((s) => new Promise((resolve) => s.once('response', resolve))));
    const posted = await h2Request(session, '/events', 'POST', '{"text":"hello all"}', { 'content-type': 'application/json' });
    assert.equal(posted.status, 202);
    await until(() => texts.every((t) => t.includes('data: {"text":"hello all"}')), 'every stream got the event');
    for (const text of texts) assert.match(text, /event: posted\ndata: \{"text":"hello all"\}\n\n/);
    await until(() => texts.every((t) => t.includes(': heartbeat')), 'every stream got a heartbeat');
    for (const stream of streams) stream.close();
  } finally {
    session.close();
  }
});

test('TLS + HTTP/2: an export the client does not read is held by flow control; memory stays far below its size', async (t) => {
  const served = await start();
  const pid = served.child.pid!;
  const session = await h2(served.url);
  try {
    // Warm the process so that what follows is the export's own cost: the first answer, and a small
    // export read whole (PGlite's WebAssembly for the query is compiled again by V8's optimizing
    // tier once it runs hot: 100-200 MB on some Node lines, once, whatever the export's size).
    assert.equal((await h2Request(session, '/hello')).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await h2Request(session, '/export.ndjson?rows=20000')).status, 200);
    const baseline = rssOf(pid);
    const stream = session.request({ ':path': '/export.ndjson' });
    let received = 0;
    stream.on('data', (c: Buffer) => {
      received += c.length;
      // Read a first part, then stop reading: the stream's window fills and stays full.
      if (received > 256 * 1024) stream.pause();
    });
    stream.on('error', () => {});
    await until(() => received > 256 * 1024, 'the first part arrived');
    // Let the server run on as far as the windows let it: samples until the memory stops growing.
    let last = rssOf(pid);
    let steady = 0;
    let peak = last;
    while (steady < 10) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const now = rssOf(pid);
      peak = Math.max(peak, now);
      steady = Math.abs(now - last) < 512 * 1024 ? steady + 1 : 0;
      last = now;
    }
    const exportBytes = EXPORT_ROWS * 270;
    t.diagnostic(`received ${received} B of about ${exportBytes} B; server RSS ${baseline} -> peak ${peak} B`);
    assert.ok(received < exportBytes / 4, `the client got ${received} B while not reading`);
    assert.ok(peak - baseline < exportBytes / 2, `the server grew by ${peak - baseline} B for an export of about ${exportBytes} B`);
    // The session is not stuck behind it.
    assert.equal((await h2Request(session, '/hello')).status, 200);
    stream.close();
  } finally {
    session.close();
  }
});

test('TLS + HTTP/2 with --workers 2', async () => {
  const served = await start(['--workers', '2'], WORKERS_MANIFEST);
  const session = await h2(served.url);
  try {
    assert.equal(session.alpnProtocol, 'h2');
    const answers = await Promise.all(Array.from({ length: 10 }, () => h2Request(session, '/hello')));
    assert.ok(answers.every((a) => a.status === 200));
  } finally {
    session.close();
  }
});
