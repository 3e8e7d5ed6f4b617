/**
 * A redis connection's life, as for every kind (src/connectors/set.ts): a handle exists without
 * I/O and refuses use before `openAll` and after `closeAll`; an unreachable server is pinged a
 * bounded number of times, then fails naming the connection without its password; a refused
 * password fails at once (retrying cannot fix it); `svc serve` on an unreachable Redis exits 1
 * without listening.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { ConnectorError, ConnectorOpenError, createConnectors } from '../../src/connectors/index.js';
import { closedPort, FAST_RETRY, recordingLogger } from '../connectors/helpers.js';
import { haveRedisServer, openStore, redisConnection, redisServer } from './helpers.js';
import { ROOT as root, LOADER, moduleUrl } from '../paths.js';

const dirs: string[] = [];
after(async () => {
  for (const dir of dirs.splice(0)) {
    try {
      redisServer('stop', dir);
    } catch {
      await rm(dir, { recursive: true, force: true });
    }
  }
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

test('a handle refuses use before openAll and after closeAll, as dependency-unavailable', async () => {
  const set = createConnectors({ connections: new Map([['redis.cache', redisConnection('memory:')]]) });
  const handle = set.handle('redis', 'cache');
  assert.equal(handle.state, 'created');
  const early = await handle.get('k').catch((e: unknown) => e);
  assert.ok(early instanceof ConnectorError);
  assert.equal(early.category, 'dependency-unavailable');
  assert.match(early.message, /connection "redis" "cache" is not open/);
  await set.openAll();
  await handle.set('k', 'v');
  assert.equal(await handle.get('k'), 'v');
  await set.closeAll();
  const late = await handle.get('k').catch((e: unknown) => e);
  assert.ok(late instanceof ConnectorError);
  assert.match(late.message, /connection "redis" "cache" is closed/);
});

test('an unreachable server: a bounded number of pings, then an error naming it without its password', async () => {
  const port = await closedPort();
  const url = `redis://svc:hunter22@127.0.0.1:${port}/0`;
  const set = createConnectors({ connections: new Map([['redis.cache', redisConnection(url)]]) });
  const logger = recordingLogger();
  const started = Date.now();
  const error = await set.openAll({ logger, retry: FAST_RETRY }).catch((e: unknown) => e);
  assert.ok(error instanceof ConnectorOpenError, String(error));
  assert.equal(error.attempts, 3);
  assert.equal(error.category, 'dependency-unavailable');
  assert.match(
    error.message,
    new RegExp(`^connection "redis" "cache" \\(redis://svc:\\*\\*\\*@127\\.0\\.0\\.1:${port}/0\\) could not be opened after 3 attempts: connect ECONNREFUSED`),
  );
  assert.doesNotMatch(JSON.stringify(logger.lines) + error.message, /hunter22/);
  assert.ok(Date.now() - started < 3000);
  assert.equal(set.handle('redis', 'cache').state, 'closed');
});

test('a pool block on a redis connection is ignored with a warning (one pipelined connection)', async () => {
  const set = createConnectors({ connections: new Map([['redis.cache', { ...redisConnection('memory:'), pool: { max: 4 } }]]) });
  const logger = recordingLogger();
  await set.openAll({ logger });
  assert.ok(logger.lines.some((l) => l.level === 'warn' && /pool is ignored/.test(l.message)));
  await set.closeAll();
});

test("a wrong password fails at once, naming the server's reason; the right one opens", {
  skip: haveRedisServer() ? false : 'redis-server is not installed',
}, async () => {
  const dir = await tempDir('svc-redis-auth-');
  const url = redisServer('start', dir);
  const admin = new Redis(url);
  await admin.config('SET', 'requirepass', 'right-horse');
  admin.disconnect();
  const { port } = new URL(url);
  const wrong = createConnectors({ connections: new Map([['redis.cache', redisConnection(`redis://:wrong-horse@127.0.0.1:${port}`)]]) });
  const error = await wrong.openAll({ retry: FAST_RETRY }).catch((e: unknown) => e);
  assert.ok(error instanceof ConnectorOpenError, String(error));
  assert.equal(error.attempts, 1, 'not retried');
  assert.match(error.message, /could not be opened: WRONGPASS/);
  assert.doesNotMatch(error.message, /wrong-horse/);
  const right = await openStore(`redis://:right-horse@127.0.0.1:${port}`);
  assert.equal(await right.handle.incr('n'), 1);
  await right.close();
});

test('svc serve on an unreachable Redis exits 1 without listening', async () => {
  const dir = await tempDir('svc-redis-serve-');
  const port = await closedPort();
  await writeFile(
    join(dir, 'main.hcl'),
    `connection "redis" "cache" {\n  url = "redis://127.0.0.1:${port}"\n}\nendpoint "GET /ping" {\n  pipeline {\n    respond {\n      body = { ok = true }\n    }\n  }\n}\n`,
  );
  const entry = `import(${JSON.stringify(moduleUrl('src/cli/main.ts'))}).then(async (m) => { process.exitCode = await m.run(process.argv.slice(1)); })`;
  const child = spawn(process.execPath, [...LOADER, '-e', entry, 'serve', '-c', dir, '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise((done) => child.once('exit', done));
  assert.equal(code, 1, stderr);
  assert.match(
    stderr,
    new RegExp(`connection "redis" "cache" \\(redis://127\\.0\\.0\\.1:${port}\\) could not be opened after 5 attempts: connect ECONNREFUSED`),
  );
  assert.doesNotMatch(stderr, /listening on/);
});
