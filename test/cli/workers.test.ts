/**
 * `svc serve --workers N` (issue 16): both workers serve, a worker that dies is replaced while the
 * port keeps answering, SIGTERM under load fails no request that reached the server, a SIGHUP rolls
 * the workers over one at a time; in-process stores are refused with more than one worker.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { svc } from './helpers.js';
import { get, kill, loadLoop, serve, type Served } from './serve-helpers.js';
import { COMPILED, LOADER } from '../paths.js';

const running: Served[] = [];
const dirs: string[] = [];
after(async () => {
  for (const served of running) kill(served);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A per-process counter (`shared = false`: each worker has its own store) and a health endpoint. */
function manifest(version: number, shared = 'shared = false', server = ''): string {
  return `
${server}
connection "redis" "local" {
  url = "memory:"
  ${shared}
}

endpoint "GET /count" {
  pipeline {
    redis "n" {
      connection = connection.redis.local
      command    = "INCR"
      key        = "hits"
    }
    respond {
      body = { n = steps.n.value }
    }
  }
}

endpoint "GET /health" {
  pipeline {
    respond {
      body = { version = ${version} }
    }
  }
}
`;
}

async function manifestDir(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-workers-'));
  dirs.push(dir);
  await writeFile(join(dir, 'main.hcl'), text);
  return dir;
}

/** The workers' pids, from the primary's `listening` line (log lines are batched: polled). */
async function workerPids(served: Served): Promise<number[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const m = /"workers":\d+,"pid":(\d+),"pids":\[([\d,]+)\]/.exec(served.stdout());
    if (m) return m[2]!.split(',').map(Number);
    if (Date.now() > deadline) throw new Error(`no listening line with pids:\n${served.stdout()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function until(what: string, done: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('--workers 2: both workers serve; one that is killed is replaced while the port keeps answering', async () => {
  const served = await serve(await manifestDir(manifest(1)), ['--workers', '2']);
  running.push(served);
  assert.match(served.stderr(), /listening on http:\/\/127\.0\.0\.1:\d+ \(2 endpoints, 2 workers\)/);
  const pids = await workerPids(served);
  assert.equal(pids.length, 2);

  // Each worker counts in its own store: 20 requests give each count twice when two processes serve.
  const counts: number[] = [];
  for (let i = 0; i < 20; i++) counts.push(JSON.parse((await get(`${served.url}/count`)).body).n);
  assert.ok(Math.max(...counts) < 20, `two stores, so two workers, served: ${counts}`);
  assert.equal(new Set(counts).size < counts.length, true);
  // And the request lines say so: each names the worker that wrote it (lines are batched: polled).
  await until('request lines from both workers', () => {
    const linePids = new Set([...served.stdout().matchAll(/"pid":(\d+),"reqId":"[^"]*","method":"GET","url":"\/count"/g)].map((m) => Number(m[1])));
    return pids.every((pid) => linePids.has(pid));
  });

  // Stopped from outside (SIGTERM: it drains first), then killed outright: each time another starts.
  const loop = loadLoop(`${served.url}/health`, 4);
  await new Promise((r) => setTimeout(r, 300));
  process.kill(pids[0]!, 'SIGTERM');
  await served.waitFor(new RegExp(`worker ${pids[0]} exited \\(code 0\\); starting another`));
  await until('a replacement worker started', () => /"msg":"worker started"/.test(served.stdout()));
  await new Promise((r) => setTimeout(r, 300));
  const graceful = await loop.stop();
  assert.deepEqual(graceful.failures, [], 'no request failed while a worker was stopped and replaced');
  assert.ok(graceful.ok > 0);

  process.kill(pids[1]!, 'SIGKILL');
  await served.waitFor(new RegExp(`worker ${pids[1]} exited \\(SIGKILL\\); starting another`));
  await until('a second replacement worker started', () => served.stdout().match(/"msg":"worker started"/g)?.length === 2);
  // A killed process loses what it was serving; everything after it is answered by the others.
  const after = loadLoop(`${served.url}/health`, 4);
  await new Promise((r) => setTimeout(r, 500));
  const rest = await after.stop();
  assert.deepEqual(rest.failures, []);
  assert.ok(rest.ok > 0);

  served.child.kill('SIGTERM');
  assert.deepEqual(await served.exited, { code: 0, signal: null });
});

/** An upstream that answers after a second: requests to `GET /slow` are in flight when a signal comes. */
async function slowUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    setTimeout(() => res.setHeader('content-type', 'application/json').end('{"slow":true}'), 1000);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function slowEndpoint(upstream: string): string {
  return `
endpoint "GET /slow" {
  pipeline {
    http "up" {
      url     = "${upstream}/"
      timeout = "10s"
    }
    respond {
      body = steps.up.body
    }
  }
}
`;
}

test('--workers 2: SIGTERM under load fails no request that reached the server; SIGHUP rolls the workers over', async () => {
  const upstream = await slowUpstream();
  after(() => upstream.close());
  const slow = slowEndpoint(upstream.url);
  const dir = await manifestDir(manifest(1) + slow);
  const served = await serve(dir, ['--workers', '2']);
  running.push(served);

  const rolling = loadLoop(`${served.url}/health`, 4);
  await writeFile(join(dir, 'main.hcl'), manifest(2) + slow);
  served.child.kill('SIGHUP');
  await served.waitFor(/svc serve: reloaded \(3 endpoints, 2 workers\)/, 60_000);
  await new Promise((r) => setTimeout(r, 300));
  const seen = await rolling.stop();
  assert.deepEqual(seen.failures, [], 'the port answered throughout the rollover');
  assert.deepEqual(JSON.parse((await get(`${served.url}/health`)).body), { version: 2 });
  assert.ok(seen.bodies.has('{"version":1}') && seen.bodies.has('{"version":2}'));

  // A bad manifest is refused by the primary before any worker is touched.
  await writeFile(join(dir, 'main.hcl'), 'endpoint "GET /health" {\n');
  served.child.kill('SIGHUP');
  await served.waitFor(/reload failed; the previous manifest is still served/);
  assert.deepEqual(JSON.parse((await get(`${served.url}/health`)).body), { version: 2 });

  // Each request takes a second: at the signal every client has one in flight, on a worker.
  const loop = loadLoop(`${served.url}/slow`, 4);
  await new Promise((r) => setTimeout(r, 2500));
  const signalled = Date.now();
  served.child.kill('SIGTERM');
  const exited = await served.exited;
  const stopped = await loop.stop();
  assert.deepEqual(exited, { code: 0, signal: null });
  // Every request whose connection was made well before the signal was answered. One made about the
  // time of the signal races the port's closing: refused, or reset when its connection was still
  // queued as the listening socket closed (as with any server that stops listening: 'read
  // ECONNRESET', or 'socket hang up' when the reset comes before the request is written; on a loaded
  // machine the primary may not have taken such a connection off the queue yet); never an error answer.
  const inFlight = stopped.failures.filter((_, i) => (stopped.connectedAt[i] ?? Infinity) < signalled - RACING_MS);
  assert.deepEqual(inFlight, [], 'every request in flight at SIGTERM was answered');
  assert.deepEqual(
    stopped.failures.filter((f) => !/ECONNREFUSED|ECONNRESET|socket hang up/.test(f)),
    [],
  );
  assert.ok(stopped.bodies.get('{"slow":true}')! >= 4, `answered: ${JSON.stringify([...stopped.bodies])}`);
});

/** How close to a signal a connection may be made and still be in the listening socket's queue. */
const RACING_MS = 200;

test('memory: (without shared = false) and pglite: are refused with more than one worker, with where', async () => {
  const dir = await manifestDir(manifest(1, ''));
  const flag = await svc(['serve', '-c', dir, '--port', '0', '--workers', '2']);
  assert.equal(flag.code, 1);
  assert.match(flag.stderr, /Error: In-process store with several workers/);
  assert.match(flag.stderr, /on .*main\.hcl line 4/);
  assert.match(flag.stderr, /the command line asks for 2 worker processes/);
  assert.match(flag.stderr, /shared = false/);

  const json = await svc(['serve', '-c', dir, '--port', '0', '--workers', 'auto', '--diagnostics=json']);
  const [diagnostic] = JSON.parse(json.stderr).diagnostics;
  assert.equal(diagnostic.code, 'SVC_CONNECTION_PROCESS_LOCAL_STORE');
  assert.equal(diagnostic.range.start.line, 4);
  assert.equal(diagnostic.range.start.column, 9);

  // The server block's own count is a model check: `svc check` refuses what `serve` would.
  const block = await manifestDir(manifest(1, '', 'server {\n  workers = 2\n}'));
  const checked = await svc(['check', '-c', block]);
  assert.equal(checked.code, 1);
  assert.match(checked.stdout + checked.stderr, /In-process store with several workers/);
  assert.match(checked.stdout + checked.stderr, /the server block asks for 2 worker processes/);

  const pglite = await manifestDir('server {\n  workers = "auto"\n}\nconnection "postgres" "db" {\n  url = "pglite:"\n}\n');
  const refused = await svc(['check', '-c', pglite]);
  assert.equal(refused.code, 1);
  assert.match(refused.stdout + refused.stderr, /In-process database with several workers/);

  // `shared = false` says the split is wanted; one worker needs no sharing.
  assert.equal((await svc(['check', '-c', await manifestDir(manifest(1, 'shared = false', 'server {\n  workers = 2\n}'))])).code, 0);
  assert.equal((await svc(['check', '-c', await manifestDir(manifest(1, '', 'server {\n  workers = 1\n}'))])).code, 0);
});

test('rate limits counted in each process are a warning with more than one worker; a Redis store is not', async () => {
  const limited = (connection: string) =>
    `server {\n  workers = 2\n  rate_limit {\n    max = 10\n    window = "1m"\n    ${connection}\n  }\n}\n` +
    'connection "redis" "limits" {\n  url = "redis://127.0.0.1:1"\n}\n' +
    'endpoint "GET /health" {\n  pipeline {\n    respond {\n      body = { ok = true }\n    }\n  }\n}\n';
  const inMemory = await svc(['check', '-c', await manifestDir(limited(''))]);
  assert.equal(inMemory.code, 0, 'a warning does not refuse the manifest');
  assert.match(inMemory.stdout + inMemory.stderr, /Warning: Rate limit counted per worker/);
  assert.match(inMemory.stdout + inMemory.stderr, /on .*main\.hcl line 3/);
  assert.match(inMemory.stdout + inMemory.stderr, /the server block asks for 2 worker processes: a client may make `max` requests per worker/);
  const shared = await svc(['check', '-c', await manifestDir(limited('connection = connection.redis.limits'))]);
  assert.equal(shared.code, 0);
  assert.doesNotMatch(shared.stdout + shared.stderr, /Rate limit counted per worker/);

  // The flag's count is checked by serve, which warns and serves.
  const withoutRedis = limited('')
    .replace('workers = 2', 'workers = 1')
    .replace(/connection "redis"[^}]*\}\n/, '');
  const served = await serve(await manifestDir(withoutRedis), ['--workers', '2']);
  running.push(served);
  assert.match(served.stderr(), /Warning: Rate limit counted per worker.*the command line asks for 2 worker processes/s);
  assert.equal((await get(`${served.url}/health`)).status, 200);
  served.child.kill('SIGTERM');
  assert.deepEqual(await served.exited, { code: 0, signal: null });
});

test("a worker that cannot boot stops the start: svc serve exits 1, with the failure and the worker's exit code", async () => {
  const dir = await manifestDir(
    'connection "redis" "cache" {\n  url = "redis://127.0.0.1:1"\n}\nendpoint "GET /h" {\n  pipeline {\n    respond {\n      body = {}\n    }\n  }\n}\n',
  );
  // A process of its own: cluster forks the process's own entry point.
  const entry = fileURLToPath(new URL(`./serve-helpers.${COMPILED ? 'js' : 'ts'}`, import.meta.url));
  const ran = await new Promise<{ code: number | null; stderr: string }>((done) =>
    execFile(process.execPath, [...LOADER, entry, 'serve', '-c', dir, '--port', '0', '--workers', '2'], { timeout: 60_000 }, (error, _out, stderr) =>
      done({ code: error ? (error.code as number) : 0, stderr }),
    ),
  );
  assert.equal(ran.code, 1);
  assert.match(ran.stderr, /connection "redis" "cache" \(redis:\/\/127\.0\.0\.1:1\) could not be opened/);
  assert.match(ran.stderr, /worker \d+ exited \(code 1\) before it listened; stopping the others/);
});

test('--workers takes a whole number from 1, or auto', async () => {
  for (const bad of ['0', 'two', '1.5', '-1']) {
    const ran = await svc(['serve', '-c', 'examples/quickstart', '--workers', bad]);
    assert.equal(ran.code, 2, bad);
  }
  const ran = await svc(['serve', '-c', 'examples/quickstart', '--workers', 'x']);
  assert.match(ran.stderr, /--workers must be a whole number of processes from 1 to 1024, or "auto"; got "x"/);
});
