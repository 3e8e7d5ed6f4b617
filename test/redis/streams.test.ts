/**
 * Redis Streams on both stores (XADD with its retention, XRANGE, XREVRANGE, and following a key as
 * XREAD BLOCK does), and the same sequence of commands run on both, answer for answer: ids, entries,
 * error texts. `memory:` trims exactly where Redis trims whole nodes (`~`), so retention is checked
 * by what `~` promises (at least what was asked is kept, the newest ones) rather than by equality.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectorError, type RedisHandle, type StreamEntry } from '../../src/connectors/index.js';
import { eventually, type OpenStore, openStore, REAL_REDIS_URL, NO_REAL_REDIS, STORES, unique } from './helpers.js';

const ALL = { start: '-', end: '+' };

for (const store of STORES) {
  describe(`redis streams on ${store.name}`, { skip: store.skip }, () => {
    let open: OpenStore;
    let r: RedisHandle;
    before(async () => {
      open = await openStore(store.url);
      r = open.handle;
    });
    after(() => open?.close());

    test('XADD * gives increasing ids; XRANGE and XREVRANGE read them back with their fields, COUNT bounding', async () => {
      const key = unique('stream');
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await r.xadd(key, '*', ['n', String(i), 'kind', 'tick']));
      for (const id of ids) assert.match(id, /^[0-9]+-[0-9]+$/);
      assert.deepEqual([...ids].sort(compareIdText), ids);
      assert.equal(new Set(ids).size, 5);
      const all = await r.xrange(key, ALL);
      assert.deepEqual(
        all.map((e) => e.id),
        ids,
      );
      assert.deepEqual(all[2]!.fields, ['n', '2', 'kind', 'tick']);
      assert.deepEqual(
        (await r.xrange(key, { ...ALL, count: 2 })).map((e) => e.id),
        ids.slice(0, 2),
      );
      assert.deepEqual(
        (await r.xrange(key, { ...ALL, count: 2, newestFirst: true })).map((e) => e.id),
        [ids[4], ids[3]],
      );
      assert.deepEqual(
        (await r.xrange(key, { start: `(${ids[1]}`, end: ids[3]! })).map((e) => e.id),
        [ids[2], ids[3]],
      );
      assert.deepEqual(await r.xrange(unique('none'), ALL), []);
    });

    test('MAXLEN ~ keeps at least the newest n entries; MINID ~ keeps every entry from the id on', async () => {
      const key = unique('stream');
      const ids: string[] = [];
      for (let i = 1; i <= 300; i++) ids.push(await r.xadd(key, `5-${i}`, ['n', String(i)], { maxLen: 10 }));
      const kept = (await r.xrange(key, ALL)).map((e) => e.id);
      assert.ok(kept.length >= 10 && kept.length < 300, `kept ${kept.length}`);
      assert.deepEqual(kept, ids.slice(-kept.length));
      const byId = unique('stream');
      for (let i = 1; i <= 300; i++) await r.xadd(byId, `7-${i}`, ['n', String(i)], { minId: '7-250' });
      const fromMin = (await r.xrange(byId, ALL)).map((e) => e.id);
      assert.ok(fromMin.length >= 51 && fromMin.length < 300, `kept ${fromMin.length}`);
      assert.equal(fromMin.at(-51), '7-250');
    });

    test('a stream key read or written as a string, and a string key as a stream, fail with WRONGTYPE', async () => {
      const stream = unique('stream');
      await r.xadd(stream, '*', ['a', '1']);
      const text = unique('text');
      await r.set(text, 'x');
      for (const attempt of [() => r.get(stream), () => r.incr(stream), () => r.xadd(text, '*', ['a', '1']), () => r.xrange(text, ALL)]) {
        await assert.rejects(attempt(), (error: unknown) => {
          assert.ok(error instanceof ConnectorError);
          assert.equal(error.code, 'WRONGTYPE');
          return true;
        });
      }
    });

    test('a tail hands over every entry added after its id, in order, once; it stops on WRONGTYPE', async () => {
      const key = unique('stream');
      const first = await r.xadd(key, '*', ['n', '0']);
      const seen: StreamEntry[] = [];
      const failures: Error[] = [];
      const tail = r.tail(key, first, { onEntries: (entries) => seen.push(...entries), onFailure: (error) => failures.push(error) });
      try {
        const added: string[] = [];
        for (let i = 1; i <= 50; i++) added.push(await r.xadd(key, '*', ['n', String(i)]));
        await eventually(
          () => seen.length,
          (n) => n >= 50,
          5000,
        );
        assert.deepEqual(
          seen.map((e) => e.id),
          added,
        );
        assert.equal(tail.lastId, added.at(-1));
        await r.del(key);
        await r.set(key, 'now a string');
        await r.set(unique('poke'), 'x');
        // The blocked read is woken by nothing on a string key: the next read (after its block) would
        // fail; this test closes it rather than wait for the block, and checks the failure path below.
      } finally {
        tail.close();
      }
      const text = unique('text');
      await r.set(text, 'x');
      const failing = r.tail(text, '0-0', { onEntries: () => {}, onFailure: (error) => failures.push(error) });
      await eventually(
        () => failures.length,
        (n) => n > 0,
        5000,
      );
      failing.close();
      assert.ok(failures[0] instanceof ConnectorError);
      assert.equal((failures[0] as ConnectorError).code, 'WRONGTYPE');
    });
  });
}

/** The same commands on both stores: the same answers and the same failures, text for text. */
describe('redis streams: memory: answers as Redis does', { skip: REAL_REDIS_URL === undefined ? NO_REAL_REDIS : false }, () => {
  let memory: OpenStore;
  let server: OpenStore;
  before(async () => {
    memory = await openStore('memory:');
    server = await openStore(REAL_REDIS_URL!);
  });
  after(async () => {
    await memory?.close();
    await server?.close();
  });

  const script: ((r: RedisHandle, key: string) => Promise<unknown>)[] = [
    (r, k) => r.xadd(k, '1-1', ['a', '1']),
    (r, k) => r.xadd(k, '1-*', ['a', '2']),
    (r, k) => r.xadd(k, '1', ['a', '3']),
    (r, k) => r.xadd(k, '2', ['a', '3', 'b', '{"x":1}']),
    (r, k) => r.xadd(k, '2-1', ['dup', '1', 'dup', '2']),
    (r, k) => r.xadd(k, '0-0', ['a', '1']),
    (r, k) => r.xadd(k, 'nope', ['a', '1']),
    (r, k) => r.xadd(k, '3-x', ['a', '1']),
    (r, k) => r.xadd(k, '3-1', ['a', '1'], { minId: 'bad' }),
    (r, k) => r.xadd(k, '18446744073709551616-0', ['a', '1']),
    (r, k) => r.xrange(k, ALL),
    (r, k) => r.xrange(k, { start: '1', end: '1' }),
    (r, k) => r.xrange(k, { start: '(1-1', end: '(2-1' }),
    (r, k) => r.xrange(k, { start: '2', end: '1' }),
    (r, k) => r.xrange(k, { start: '2', end: '+', newestFirst: true }),
    (r, k) => r.xrange(k, { ...ALL, count: 1, newestFirst: true }),
    (r, k) => r.xrange(k, { start: 'x', end: '+' }),
    (r, k) => r.xrange(k, { start: '(-', end: '+' }),
    (r, k) => r.xrange(k, { start: '-', end: '(0-0' }),
    (r, k) => r.xadd(k, '9-9', ['a', '1'], { maxLen: 0 }),
    (r, k) => r.xrange(k, ALL),
    (r, k) => r.xadd(k, '9-9', ['a', '1']),
    (r, k) => r.xadd(k, '*', ['after', 'trim']).then((id) => compareIdText(id, '9-9') > 0),
  ];

  test('each command of the script answers the same, errors included', async () => {
    const key = unique('compare');
    for (const [i, command] of script.entries()) {
      const [m, s] = await Promise.all([outcome(() => command(memory.handle, key)), outcome(() => command(server.handle, key))]);
      assert.deepEqual(m, s, `command ${i}: ${command.toString()}`);
    }
  });
});

async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await run() };
  } catch (error) {
    return { error: error instanceof ConnectorError ? error.message.replace(/^[^:]*: /, '') : String(error) };
  }
}

function compareIdText(a: string, b: string): number {
  const [am, as] = a.split('-').map(BigInt) as [bigint, bigint];
  const [bm, bs] = b.split('-').map(BigInt) as [bigint, bigint];
  return am === bm ? (as === bs ? 0 : as < bs ? -1 : 1) : am < bm ? -1 : 1;
}
