/**
 * Two replicas of examples/cluster on one real Redis and one PostgreSQL: nothing a replica keeps is
 * its own. An SSE client of one receives what is posted through the other (Redis pub/sub), a cache
 * entry written through one is read through the other, and the migrations, applied while both boot,
 * ran once.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  closeTargets,
  eventually,
  NO_REAL_POSTGRES,
  NO_REAL_REDIS,
  post,
  REAL_POSTGRES_URL,
  REAL_REDIS_URL,
  redisPrefix,
  type Replica,
  ResumingClient,
  startReplica,
  TARGETS,
} from './helpers.js';
import { ensureBuilt } from '../e2e/build.js';

const skip = REAL_REDIS_URL === undefined ? NO_REAL_REDIS : REAL_POSTGRES_URL === undefined ? NO_REAL_POSTGRES : false;

describe('two replicas sharing Redis and PostgreSQL', { skip, timeout: 90_000 }, () => {
  let replicas: Replica[] = [];
  const clients: ResumingClient[] = [];

  before(async () => {
    ensureBuilt();
    const env = { REDIS_URL: REAL_REDIS_URL!, REDIS_PREFIX: redisPrefix(), DATABASE_URL: await TARGETS[1]!.fresh() };
    // Booted together: both go for the migrations at once.
    replicas = await Promise.all([startReplica('r1', env), startReplica('r2', env)]);
  });
  after(async () => {
    for (const c of clients) c.close();
    await Promise.all(replicas.map((r) => r.stop()));
    await closeTargets();
  });

  test('the migration was applied by one replica only', async () => {
    // The log goes to stdout, and may arrive after "listening" on stderr.
    const opened = (r: Replica): boolean => /"connection":"postgres\.db".*"msg":"connection open"/.test(r.output());
    await eventually(
      () => replicas.every(opened),
      (all) => all,
    );
    const applied = replicas.filter((r) => r.output().includes('"migration applied"'));
    assert.equal(applied.length, 1, replicas.map((r) => `${r.name}: ${r.output()}`).join('\n'));
  });

  test('an SSE client of one replica receives what is posted through the other', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const onA = new ResumingClient(a.url);
    const onB = new ResumingClient(b.url);
    clients.push(onA, onB);
    await Promise.all([onA.open(), onB.open()]);
    assert.deepEqual([onA.replica, onB.replica], ['r1', 'r2']);
    const throughB = await post(b.url, 'posted through r2');
    const throughA = await post(a.url, 'posted through r1');
    assert.equal(throughB.status, 202);
    assert.equal(throughA.status, 202);
    const expected = [throughB.message!.seq, throughA.message!.seq];
    for (const client of [onA, onB]) {
      const got = await eventually(
        () => client.received,
        (r) => r.length >= 2,
      );
      assert.deepEqual(got, expected, `the client of ${client.replica} got both, in order`);
      assert.equal(client.reconnects, 0);
    }
  });

  test('a cache entry written through one replica is read through the other', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const { message } = await post(a.url, 'cache me');
    const first = await fetch(`${a.url}/messages/${message!.seq}`);
    assert.equal(first.headers.get('x-cache'), 'MISS');
    assert.equal(first.headers.get('x-replica'), 'r1');
    const written = await first.json();
    const second = await fetch(`${b.url}/messages/${message!.seq}`);
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('x-cache'), 'HIT', 'r2 read what r1 cached');
    assert.equal(second.headers.get('x-replica'), 'r2');
    assert.deepEqual(await second.json(), written);
  });
});
