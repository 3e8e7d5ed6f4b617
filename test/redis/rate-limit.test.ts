/**
 * Rate limits counted in a real Redis (src/http/rate-limit.ts, @fastify/rate-limit's RedisStore over
 * svc's connection): two replicas, each with its own connection, share one budget; the window
 * resets through the key's expiry; a Redis that goes away lets requests through uncounted (logged
 * once), and counting resumes when it is back. In-process limits: test/http/rate-limit.test.ts.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { serveManifest, type ServedService } from '../http/helpers.js';
import { eventually, haveRedisServer, NO_REAL_REDIS, REAL_REDIS_URL, redisServer, sleep, unique } from './helpers.js';

const manifest = (url: string, limit: string) => `
connection "redis" "limits" {
  url = "${url}"
}
server {
  rate_limit {
    ${limit}
    key        = ctx.request.headers.x-client
    connection = connection.redis.limits
  }
}
route "GET /a" {
  respond { body = { ok = true } }
}
route "GET /b" {
  respond { body = { ok = true } }
}
`;

async function get(s: ServedService, url: string, client: string) {
  const res = await s.app.inject({ method: 'GET', url, headers: { 'x-client': client } });
  return { status: res.statusCode, ratelimit: res.headers.ratelimit as string | undefined, retryAfter: res.headers['retry-after'] };
}

const served: ServedService[] = [];
const own: string[] = [];
after(async () => {
  for (const s of served.splice(0)) await s.close();
  for (const dir of own.splice(0)) redisServer('stop', dir);
});

async function replica(url: string, limit: string): Promise<ServedService> {
  const s = await serveManifest(manifest(url, limit));
  served.push(s);
  return s;
}

test('two replicas on one Redis count against one budget, in the key the plugin keeps there', {
  skip: REAL_REDIS_URL === undefined && NO_REAL_REDIS,
}, async () => {
  const url = REAL_REDIS_URL!;
  const [one, two] = [await replica(url, 'max = 3\n window = "1m"'), await replica(url, 'max = 3\n window = "1m"')];
  const client = unique('client');
  const answers = [
    await get(one, '/a', client),
    await get(two, '/b', client),
    await get(one, '/b', client),
    await get(two, '/a', client),
    await get(one, '/a', client),
  ];
  assert.deepEqual(
    answers.map((a) => [a.status, a.ratelimit?.split(';')[1]]),
    [
      [200, 'r=2'],
      [200, 'r=1'],
      [200, 'r=0'],
      [429, 'r=0'],
      [429, 'r=0'],
    ],
  );
  assert.match(String(answers[3]!.retryAfter), /^(60|59)$/);
  // Another client is not affected, on either replica.
  assert.equal((await get(two, '/a', unique('other'))).status, 200);

  const redis = new Redis(url, { lazyConnect: true });
  try {
    await redis.connect();
    const key = `svc:rate-limit:server:k:${client}`;
    assert.equal(await redis.get(key), '5');
    const ttl = await redis.pttl(key);
    assert.ok(ttl > 0 && ttl <= 60_000, `pttl ${ttl}`);
  } finally {
    redis.disconnect();
  }
});

test('the window resets in Redis: once Retry-After has passed, served again on either replica', {
  skip: REAL_REDIS_URL === undefined && NO_REAL_REDIS,
}, async () => {
  const url = REAL_REDIS_URL!;
  const [one, two] = [await replica(url, 'max = 1\n window = "1s"'), await replica(url, 'max = 1\n window = "1s"')];
  const client = unique('client');
  assert.equal((await get(one, '/a', client)).status, 200);
  const refused = await get(two, '/a', client);
  assert.deepEqual([refused.status, refused.retryAfter], [429, '1']);
  // Liveness only: within 10 s.
  const status = await eventually(
    async () => (await get(two, '/a', client)).status,
    (s) => s === 200,
    10_000,
  );
  assert.equal(status, 200);
  assert.equal((await get(one, '/a', client)).status, 429);
});

test('Redis unreachable: requests are served uncounted (fail open), logged once; counted again when it is back', {
  skip: haveRedisServer() ? false : 'redis-server is not installed (the test command installs it)',
}, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-rate-limit-'));
  own.push(dir);
  const url = redisServer('start', dir);
  const port = new URL(url).port;
  const s = await replica(url, 'max = 2\n window = "1m"');
  const client = unique('client');
  assert.equal((await get(s, '/a', client)).status, 200);
  assert.equal((await get(s, '/a', client)).status, 200);
  assert.equal((await get(s, '/a', client)).status, 429);

  redisServer('halt', dir);
  // Once the connection knows Redis is gone, the limit is not enforced and no RateLimit is claimed.
  const during = await eventually(
    () => get(s, '/a', client),
    (a) => a.status === 200,
    10_000,
  );
  assert.deepEqual([during.status, during.ratelimit], [200, undefined]);
  for (let i = 0; i < 5; i++) assert.equal((await get(s, '/a', client)).status, 200);
  const unavailable = s.log.lines.filter((l) => l.msg === 'rate limit store unavailable: requests are served uncounted');
  assert.equal(unavailable.length, 1);
  assert.equal(unavailable[0]!.connection, 'redis.limits');
  assert.equal(unavailable[0]!.level, 40);

  redisServer('start', dir, port);
  // Back (reconnected on its own): counted again, in a fresh Redis (persistence is off).
  const fresh = unique('client');
  const first = await eventually(
    () => get(s, '/a', fresh),
    (a) => a.ratelimit !== undefined,
    10_000,
  );
  assert.equal(first.ratelimit?.split(';')[1], 'r=1');
  assert.equal((await get(s, '/a', fresh)).status, 200);
  assert.equal((await get(s, '/a', fresh)).status, 429);
  await sleep(0);
  assert.equal(s.log.lines.filter((l) => l.msg === 'rate limit store answers again: requests are counted').length, 1);
});
