/**
 * Cache hit throughput: `GET /api/v1/products/{sku}` served by svc on bench/cache/manifest (the
 * cache-aside endpoint of SPEC.md §4.4) against a hand-written Fastify + ioredis route
 * (baseline.ts), both on the same real Redis, measured in the same run by the shared runner
 * (bench/lib/harness.ts: alternating rounds, child processes, compiled code). The product is put in
 * the cache first, so every request is a hit: one Redis GET per request on both sides.
 *
 *     npm run bench:cache [-- --rounds 5 --seconds 3 --connections 16 --logging-rounds 5]
 *
 * Two series: against the baseline decoding the cached JSON and serializing it again (`--parse`;
 * svc decodes it too, and writes the stored text instead of encoding the value again), strict and
 * then logging one line per request as svc does; then, informational, against the baseline that
 * sends the cached text untouched.
 *
 * The Redis server: SVC_TEST_REDIS_URL when set, otherwise a throw-away one started here with
 * scripts/redis-test-server.sh (and stopped at the end). svc answers misses (never reached here) from
 * SVC_TEST_POSTGRES_URL when set, else from in-memory PGlite, whose engine in the same process costs
 * svc a few microseconds per request even idle (bench/cache/README.md).
 *
 * Main result: the median ratio svc/Fastify of req/s against the same-work baseline, goal >= 0.95.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { root, runBench, type Scenario } from '../lib/harness.js';

const PRODUCT = { sku: 'W-1', name: 'Widget', price: '9.90', stock: 12, tags: ['blue', 'small'] };

/** The server to measure on, and how to let it go. */
function server(): { url: string; stop(): void } {
  const given = process.env.SVC_TEST_REDIS_URL;
  if (given) return { url: given, stop: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-redis-'));
  const script = join(root, 'scripts/redis-test-server.sh');
  let url: string;
  try {
    url = execFileSync(script, ['start', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start a Redis server (scripts/redis-test-server.sh); set SVC_TEST_REDIS_URL instead: ${(error as Error).message}`);
  }
  console.log(`started a Redis server for this run: ${url}`);
  return { url, stop: () => execFileSync(script, ['stop', dir], { stdio: 'ignore' }) };
}

const redisServer = server();
try {
  const seed = new Redis(redisServer.url);
  const version = /redis_version:(\S+)/.exec(await seed.info('server'))?.[1];
  await seed.set(`product:${PRODUCT.sku}`, JSON.stringify(PRODUCT));
  seed.disconnect();
  console.log(`\n#### Redis ${version} (a real server on loopback); every request a cache hit\n`);
  const env = { REDIS_URL: redisServer.url, DATABASE_URL: process.env.SVC_TEST_POSTGRES_URL || 'pglite:' };
  console.log(`svc's database for misses: ${env.DATABASE_URL.startsWith('pglite:') ? 'PGlite in memory' : 'the PostgreSQL server of SVC_TEST_POSTGRES_URL'}`);
  const hit: Scenario = {
    name: 'cache hit (200)',
    path: `/api/v1/products/${PRODUCT.sku}`,
    status: 200,
    check(_server, _status, body) {
      if (JSON.stringify(body) !== JSON.stringify(PRODUCT)) throw new Error(`expected ${JSON.stringify(PRODUCT)}`);
    },
  };
  const common = { manifest: 'bench/cache/manifest', baseline: 'bench/cache/baseline', env, main: hit } as const;
  console.log('\n### against Fastify + ioredis decoding the cached JSON and sending the object (svc decodes it too)');
  const same = await runBench({ ...common, title: `GET /api/v1/products/${PRODUCT.sku} (cache hit)`, goal: 0.95, baselineArgs: ['--parse'] });
  console.log('\n### informational: against Fastify + ioredis sending the cached text untouched');
  const raw = await runBench({ ...common, title: `GET /api/v1/products/${PRODUCT.sku} (cache hit, raw pass-through)`, loggingRounds: 0 });
  console.log(
    `\nsummary: svc/Fastify req/s ${same.main.ratio.toFixed(3)} (same work), ${same.logging?.ratio.toFixed(3) ?? '-'} (same work, both logging), ` +
      `${raw.main.ratio.toFixed(3)} (raw pass-through baseline)`,
  );
} finally {
  redisServer.stop();
}
