/**
 * `server { health { live, ready, drain_delay } }` (src/http/health.ts, src/manifest/health.ts): the
 * probes on a real `svc serve` with a real Redis of the test's own, which it stops and starts again;
 * readiness from the stop signal on, while the drain delay keeps the port open; the readiness
 * check's shared pings; the block's diagnostics.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readinessOf } from '../../src/http/index.js';
import { loadServiceModel } from '../../src/steps/index.js';
import { eventually, haveRedisServer, redisServer, redisServerAsync } from '../redis/helpers.js';
import { get, kill, serve, type Served } from './serve-helpers.js';

const dirs: string[] = [];
const served: Served[] = [];
const redisDirs: string[] = [];
after(async () => {
  for (const s of served) kill(s);
  for (const dir of redisDirs) redisServer('stop', dir);
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function manifestDir(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-health-'));
  dirs.push(dir);
  await writeFile(join(dir, 'main.hcl'), text);
  return dir;
}

describe('readinessOf', () => {
  test('draining answers at once, without a ping; pings are shared for a second; a connection down is named', async () => {
    let draining = false;
    let pings = 0;
    let down = false;
    let now = 0;
    const readiness = readinessOf(
      {
        draining: () => draining,
        ping: async () => {
          pings++;
          return [
            { key: 'postgres.db', ok: true },
            { key: 'redis.cache', ok: !down },
          ];
        },
      },
      () => now,
    );
    assert.deepEqual(await readiness(), { ready: true, connections: { 'postgres.db': 'up', 'redis.cache': 'up' } });
    await Promise.all([readiness(), readiness(), readiness()]);
    assert.equal(pings, 1);
    down = true;
    now = 999;
    assert.equal((await readiness()).ready, true, 'the round of pings is still fresh');
    now = 1000;
    const state = await readiness();
    assert.equal(state.ready, false);
    assert.match(state.reason ?? '', /redis\.cache/);
    assert.equal(pings, 2);
    draining = true;
    now = 1001;
    assert.deepEqual(await readiness(), { ready: false, reason: 'shutting down' });
    assert.equal(pings, 2);
  });
});

describe('the health block', () => {
  test('paths, false, a bad path, one path for both, and an endpoint on a probe path', async () => {
    const model = async (health: string) => {
      const dir = await manifestDir(
        `server {\n  health {\n${health}\n  }\n}\nendpoint "GET /x" {\n  pipeline {\n    respond {\n      body = {}\n    }\n  }\n}\n`,
      );
      return loadServiceModel(dir);
    };
    const plain = await model('');
    assert.deepEqual(plain.model?.server.health, { livePath: '/livez', readyPath: '/readyz' });
    const custom = await model('    live = "/-/alive"\n    ready = false\n    drain_delay = "3s"');
    assert.deepEqual(custom.model?.server.health, { livePath: '/-/alive', drainDelayMs: 3000 });
    const bad = await model('    live = "livez"');
    assert.match(bad.diagnostics.map((d) => d.detail).join('\n'), /`live` is the path the probe is served on/);
    const same = await model('    live = "/h"\n    ready = "/h"');
    assert.match(same.diagnostics.map((d) => d.detail).join('\n'), /different paths/);
  });
});

const skip = haveRedisServer() ? false : 'redis-server is not installed (the test command installs it)';

describe('svc serve with probes', { skip }, () => {
  test('live and ready while Redis answers; ready is 503 naming it while it is down, 200 again once back; no access-log lines', async () => {
    const redisDir = await mkdtemp(join(tmpdir(), 'svc-health-redis-'));
    redisDirs.push(redisDir);
    const redisUrl = redisServer('start', redisDir);
    const dir = await manifestDir(`
server {
  health {}
}
connection "redis" "cache" {
  url = "${redisUrl}"
}
endpoint "GET /x" {
  pipeline {
    respond {
      body = { ok = true }
    }
  }
}
`);
    const s = await serve(dir);
    served.push(s);
    const live = await get(`${s.url}/livez`);
    assert.deepEqual([live.status, JSON.parse(live.body)], [200, { status: 'alive' }]);
    const ready = await get(`${s.url}/readyz`);
    assert.deepEqual([ready.status, JSON.parse(ready.body)], [200, { status: 'ready', connections: { 'redis.cache': 'up' } }]);
    assert.equal((await get(`${s.url}/x`)).status, 200);

    await redisServerAsync('halt', redisDir);
    const notReady = await eventually(
      () => get(`${s.url}/readyz`),
      (a) => a.status === 503,
      15_000,
    );
    const problem = JSON.parse(notReady.body) as Record<string, unknown>;
    assert.equal(problem.status, 503);
    assert.match(String(problem.detail), /redis\.cache/);
    assert.deepEqual(problem.connections, { 'redis.cache': 'down' });
    // Liveness does not follow the dependency: the process itself is fine.
    assert.equal((await get(`${s.url}/livez`)).status, 200);

    await redisServerAsync('start', redisDir, new URL(redisUrl).port);
    await eventually(
      () => get(`${s.url}/readyz`),
      (a) => a.status === 200,
      15_000,
    );
    // The one request of the endpoint is logged; the probes are not.
    const lines = s
      .stdout()
      .split('\n')
      .filter((l) => l.includes('"msg":"request"'));
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0]!, /"url":"\/x"/);
  });

  test('from the stop signal on, readiness is 503 while the drain delay keeps serving; then the process exits', async () => {
    const dir = await manifestDir(`
server {
  health {
    drain_delay = "1500ms"
  }
}
endpoint "GET /x" {
  pipeline {
    respond {
      body = { ok = true }
    }
  }
}
`);
    const s = await serve(dir);
    served.push(s);
    assert.equal((await get(`${s.url}/readyz`)).status, 200);
    s.child.kill('SIGTERM');
    const during = await eventually(
      () => get(`${s.url}/readyz`),
      (a) => a.status === 503,
      5000,
    );
    assert.equal(JSON.parse(during.body).detail, 'shutting down');
    // Still serving the API meanwhile: the balancer has not taken the process out yet.
    assert.equal((await get(`${s.url}/x`)).status, 200);
    const exit = await s.exited;
    assert.equal(exit.code, 0);
  });
});
