/**
 * Two `svc serve` processes (the built binary, as replicas run it) on one real Redis count a client
 * against one budget: rate_limit's counters are in Redis, not in either process. The same with two
 * servers in one process, and the outage behaviour: rate-limit.test.ts.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../e2e/build.js';
import { type Served, serve, stop } from '../e2e/live-helpers.js';
import { NO_REAL_REDIS, REAL_REDIS_URL, unique } from './helpers.js';

const running: Served[] = [];
const dirs: string[] = [];
after(async () => {
  for (const s of running.splice(0)) await stop(s);
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

test('two svc serve processes on one Redis share a client budget', { skip: REAL_REDIS_URL === undefined && NO_REAL_REDIS }, async () => {
  ensureBuilt();
  const dir = await mkdtemp(join(tmpdir(), 'svc-rate-limit-replicas-'));
  dirs.push(dir);
  await writeFile(
    join(dir, 'main.hcl'),
    `
connection "redis" "limits" {
  url = "${REAL_REDIS_URL}"
}
server {
  rate_limit {
    max        = 4
    window     = "1m"
    key        = ctx.request.headers.x-client
    connection = connection.redis.limits
  }
}
route "GET /hello" {
  respond { body = { hello = "world" } }
}
`,
  );
  const one = await serve(dir);
  running.push(one);
  const two = await serve(dir);
  running.push(two);
  assert.notEqual(one.port, two.port);

  const client = unique('client');
  const statuses: number[] = [];
  for (const replica of [one, two, one, two, one, two]) {
    const res = await fetch(`${replica.url}/hello`, { headers: { 'x-client': client } });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
  // Each process wrote its own lines (batched: all written by the time it has exited): both served, both refused.
  for (const replica of [one, two]) await stop(replica);
  for (const replica of [one, two]) {
    const lines = replica.lines().filter((l) => l.msg === 'request');
    assert.deepEqual(
      lines.map((l) => l.status),
      [200, 200, 429],
    );
  }
});
