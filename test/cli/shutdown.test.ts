/**
 * `svc serve` stopping (docs/operations.md "Stopping"), as a real process: an idle server exits at once, without
 * waiting for `shutdown_timeout`; requests still running when it runs out are cut and logged as cut
 * by the server (503, or the status already sent, with `cancelled: "shutdown"`), not as clients that
 * left (499). The same with `--workers 2`, whose workers close their channel to the primary once it
 * says nothing more is on its way (src/cli/worker-channel.ts) rather than after a fixed wait.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get, kill, serve, type Served } from './serve-helpers.js';

const running: Served[] = [];
const dirs: string[] = [];
/** Requests the upstream holds without answering (`/hang`) or after a first chunk (`/drip`). */
const held: ServerResponse[] = [];
let upstream: Server;
let upstreamUrl = '';

before(async () => {
  upstream = createServer((req: IncomingMessage, res: ServerResponse) => {
    held.push(res);
    if (req.url === '/drip') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first chunk\n');
    }
    // Otherwise nothing: the request is held until the test ends.
  });
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

function manifest(shutdownTimeout: string): string {
  return `
server {
  shutdown_timeout = "${shutdownTimeout}"
  request_timeout  = "60s"
}

endpoint "GET /fast" {
  pipeline {
    respond {
      body = { ok = true }
    }
  }
}

endpoint "GET /slow" {
  pipeline {
    http "up" {
      url     = "${upstreamUrl}/hang"
      timeout = "60s"
    }
    respond {
      body = steps.up.body
    }
  }
}

endpoint "GET /export" {
  pipeline {
    http "up" {
      url          = "${upstreamUrl}/drip"
      stream       = true
      read_timeout = "60s"
    }
    stream "raw" {
      source = steps.up.stream
    }
  }
}
`;
}

async function start(shutdownTimeout: string, args: readonly string[] = []): Promise<Served> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-shutdown-'));
  dirs.push(dir);
  await writeFile(join(dir, 'main.hcl'), manifest(shutdownTimeout));
  const served = await serve(dir, args);
  running.push(served);
  return served;
}

interface LogLine {
  readonly msg: string;
  readonly [field: string]: unknown;
}

function logLines(served: Served): LogLine[] {
  return served
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** Polls until `condition` holds (liveness bound: 20 s). */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within 20 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** GET that resolves once the head and the first bytes have arrived, and reports how the body ended. */
function openExport(url: string): Promise<{ status: number; ended: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      const ended = new Promise<string>((done) => {
        res.on('end', () => done('complete'));
        res.on('error', () => done('cut'));
        res.on('aborted', () => done('cut'));
      });
      res.once('data', () => resolve({ status: res.statusCode!, ended }));
    });
    req.on('error', reject);
    req.end();
  });
}

for (const args of [[], ['--workers', '2']]) {
  const how = args.length === 0 ? 'one process' : '--workers 2';

  test(`${how}: an idle server exits at once on SIGTERM, not after shutdown_timeout`, async (t) => {
    const served = await start('30s', args);
    assert.equal((await get(`${served.url}/fast`)).status, 200);
    const sent = performance.now();
    served.child.kill('SIGTERM');
    const exit = await served.exited;
    const elapsed = performance.now() - sent;
    t.diagnostic(`exited ${Math.round(elapsed)} ms after SIGTERM`);
    assert.deepEqual(exit, { code: 0, signal: null });
    // What tells "did not wait" from "waited": the time-out is 30 s, and nothing was left to wait for.
    assert.ok(elapsed < 30_000, `${elapsed} ms`);
    const lines = logLines(served);
    assert.ok(lines.some((l) => l.msg === 'stopped'));
    assert.ok(!lines.some((l) => /shutdown time-out/.test(l.msg)), 'no time-out was reached');
  });

  test(`${how}: requests still running at shutdown_timeout are cut and logged as cut by the server`, async (t) => {
    const served = await start('1s', args);
    const before = held.length;
    const slow = get(`${served.url}/slow`).then(
      (answer) => `answered ${answer.status}`,
      (error: Error) => error.message,
    );
    const exported = await openExport(`${served.url}/export`);
    assert.equal(exported.status, 200);
    // Both requests are at the upstream: svc is waiting on them, nothing else.
    await until(() => held.length >= before + 2, 'both requests reach the upstream');
    const sent = performance.now();
    served.child.kill('SIGTERM');
    const exit = await served.exited;
    const elapsed = performance.now() - sent;
    t.diagnostic(`exited ${Math.round(elapsed)} ms after SIGTERM (shutdown_timeout 1000 ms)`);
    assert.deepEqual(exit, { code: 0, signal: null });
    // The upstream never answers: only the time-out can have ended them.
    assert.ok(elapsed >= 1000, `${elapsed} ms`);
    assert.equal(await slow, 'socket hang up', 'the client of the cut request sees its connection closed');
    assert.equal(await exported.ended, 'cut', 'a cut export is a truncated transfer, never a complete one');

    const lines = logLines(served);
    const slowLine = lines.find((l) => l.msg === 'request' && l.url === '/slow');
    assert.ok(slowLine, served.stdout());
    assert.equal(slowLine.status, 503);
    assert.equal(slowLine.cancelled, 'shutdown');
    const exportLine = lines.find((l) => l.msg === 'request' && l.url === '/export');
    assert.ok(exportLine, served.stdout());
    assert.equal(exportLine.status, 200, 'the status already sent');
    assert.equal(exportLine.cancelled, 'shutdown');
    assert.equal((exportLine.stream as { ended: string }).ended, 'server shutting down');
    assert.ok(!lines.some((l) => l.status === 499 || l.cancelled === 'client closed'), 'no request is taken for a client that left');
    // The time-out was reached (the request lines and the process's own lines are written by
    // separate batched writers, so their order in the output says nothing).
    assert.ok(
      lines.some((l) => l.msg === 'shutdown time-out: closing remaining connections'),
      served.stdout(),
    );
    assert.ok(lines.some((l) => l.msg === 'stopped'));
  });
}
