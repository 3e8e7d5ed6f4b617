/**
 * A real Redis that goes away under load and comes back, with svc serving throughout: requests
 * meanwhile answer 503 problems at once (the connection is known down: no queue, no hang), health
 * says so, and once the server is back the same connection serves again and every channel is
 * resubscribed, without restarting anything. Also: a server that stops answering (CLIENT PAUSE)
 * makes a step with a `timeout` answer 504 on time. Each test runs a Redis of its own: stopping or
 * pausing the shared one would disturb the test files beside it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { serve, type ServedManifest } from '../postgres/helpers.js';
import { eventually, haveRedisServer, redisServer, sleep } from './helpers.js';

const skip = haveRedisServer() ? false : 'redis-server is not installed (the test command installs it)';

const own: string[] = [];
after(() => {
  for (const dir of own.splice(0)) redisServer('stop', dir);
});

async function ownServer(): Promise<{ dir: string; url: string; port: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-redis-outage-'));
  own.push(dir);
  const url = redisServer('start', dir);
  return { dir, url, port: new URL(url).port };
}

const MANIFEST = `
connection "redis" "cache" {
  url = "{{REDIS}}"
}

endpoint "POST /hits" {
  pipeline {
    redis "count" {
      connection = connection.redis.cache
      command    = "INCR"
      key        = "hits"
    }
    respond {
      body = { hits = steps.count.value }
    }
  }
}

endpoint "GET /slow" {
  pipeline {
    redis "get" {
      connection = connection.redis.cache
      command    = "GET"
      key        = "anything"
      timeout    = "150ms"
    }
    respond {
      body = { value = steps.get.value }
    }
  }
}

endpoint "GET /plain" {
  pipeline {
    redis "get" {
      connection = connection.redis.cache
      command    = "GET"
      key        = "anything"
    }
    respond {
      body = { value = steps.get.value }
    }
  }
}
`;

interface Answer {
  readonly at: number;
  readonly status: number;
  readonly ms: number;
  readonly type?: string;
}

/** `workers` loops sending POST /hits back to back until stopped; every answer is recorded. */
function load(s: ServedManifest, workers: number): { answers: Answer[]; stop(): Promise<void> } {
  const answers: Answer[] = [];
  let running = true;
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      const started = performance.now();
      const r = await s.app.inject({ method: 'POST', url: '/hits' });
      const ms = performance.now() - started;
      answers.push({ at: Date.now(), status: r.statusCode, ms, ...(r.statusCode !== 200 ? { type: r.json().type as string } : {}) });
      // Outage answers come at once; a short pause keeps the loop from spinning the event loop hot.
      if (r.statusCode !== 200) await sleep(2);
    }
  });
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

test('Redis stopped under load: 503 problems at once meanwhile; restarted: served again and resubscribed, svc untouched', { skip }, async () => {
  const server = await ownServer();
  const s = await serve(MANIFEST.replaceAll('{{REDIS}}', server.url), '');
  const handle = s.connectors.handle('redis', 'cache');
  const heard: string[] = [];
  const subscription = await handle.subscribe('news', (m) => heard.push(m));
  const traffic = load(s, 8);
  try {
    await eventually(
      () => traffic.answers.filter((a) => a.status === 200).length,
      (n) => n >= 200,
    );
    const stoppedAt = Date.now();
    redisServer('halt', server.dir);
    await eventually(
      () => traffic.answers.filter((a) => a.at > stoppedAt && a.status === 503).length,
      (n) => n >= 100,
      5000,
    );
    const health = (await s.connectors.health({ timeoutMs: 500 }))[0]!;
    assert.equal(health.ok, false);
    assert.equal(health.category, 'dependency-unavailable');

    const restartedAt = Date.now();
    redisServer('start', server.dir, server.port);
    const recovered = await eventually(
      () => traffic.answers.filter((a) => a.at > restartedAt && a.status === 200).length,
      (n) => n >= 100,
      5000,
    );
    assert.ok(recovered >= 100, 'served again after the restart, by the same svc');
    await traffic.stop();

    const during = traffic.answers.filter((a) => a.at > stoppedAt && a.at < restartedAt);
    const outage = during.filter((a) => a.status !== 200);
    assert.ok(outage.length >= 100);
    assert.deepEqual([...new Set(outage.map((a) => `${a.status} ${a.type}`))], ['503 urn:svc:error:dependency-unavailable']);
    // Known down: refused without waiting. The first few may wait out the one reconnect attempt.
    const slow = outage.filter((a) => a.ms > 250);
    assert.ok(slow.length <= 8, `${slow.length} outage answers took over 250 ms: ${slow.map((a) => Math.round(a.ms)).join(', ')}`);
    assert.ok(Math.max(...outage.map((a) => a.ms)) < 2000, 'nothing hangs');
    assert.equal((await s.connectors.health())[0]!.ok, true);

    // The subscriber connection came back by itself, with its channel.
    const admin = new Redis(server.url);
    try {
      await eventually(
        async () => Number(((await admin.pubsub('NUMSUB', 'news')) as [string, number])[1]),
        (n) => n === 1,
        5000,
      );
      assert.equal(await admin.publish('news', 'after the restart'), 1);
      await eventually(
        () => heard.length,
        (n) => n === 1,
      );
      assert.deepEqual(heard, ['after the restart']);
    } finally {
      admin.disconnect();
    }
  } finally {
    await traffic.stop();
    subscription.unsubscribe();
    await s.close();
  }
});

test('a server that stops answering: the step time-out, else the request time-out, answers 504 on time; then served again', { skip }, async () => {
  const server = await ownServer();
  const s = await serve(MANIFEST.replaceAll('{{REDIS}}', server.url), '', { requestTimeoutMs: 400 });
  const admin = new Redis(server.url);
  const timed = async (url: string): Promise<{ status: number; type: string; ms: number }> => {
    const started = performance.now();
    const r = await s.app.inject({ method: 'GET', url });
    return { status: r.statusCode, type: r.statusCode === 200 ? '' : (r.json().type as string), ms: performance.now() - started };
  };
  try {
    assert.equal((await timed('/slow')).status, 200);
    await admin.client('PAUSE', 1200, 'ALL');
    const [step, request] = await Promise.all([timed('/slow'), timed('/plain')]);
    assert.deepEqual([step.status, step.type], [504, 'urn:svc:error:timeout']);
    assert.ok(step.ms >= 140 && step.ms < 380, `the step's 150 ms time-out answered after ${step.ms} ms`);
    assert.deepEqual([request.status, request.type], [504, 'urn:svc:error:timeout']);
    assert.ok(request.ms >= 390 && request.ms < 800, `the request's 400 ms time-out answered after ${request.ms} ms`);
    await sleep(1000);
    // The abandoned commands' replies arrive and are ignored; the connection serves the next request.
    assert.equal((await timed('/plain')).status, 200);
  } finally {
    admin.disconnect();
    await s.close();
  }
});
