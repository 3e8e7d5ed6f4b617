/**
 * One behaviour suite, run against both stores (the embedded `memory:` store and a real Redis), so
 * they cannot drift: the same calls must give the same answers, the same failures with the same
 * texts. Anything the memory store does differently from Redis is a bug here.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectorError, type RedisHandle } from '../../src/connectors/index.js';
import { eventually, type OpenStore, openStore, sleep, STORES, unique } from './helpers.js';

/**
 * Long enough that the steps meant to happen within it do on a loaded machine; the expiries are
 * then waited for, not slept for.
 */
const TTL_MS = 2000;

for (const store of STORES) {
  describe(`redis behaviour on ${store.name}`, { skip: store.skip }, () => {
    let open: OpenStore;
    let r: RedisHandle;
    before(async () => {
      open = await openStore(store.url);
      r = open.handle;
    });
    after(() => open?.close());

    /** GETs `key` until it is gone, for its time-to-live and then some; answers the last value. */
    const expired = (key: string) =>
      eventually(
        () => r.get(key),
        (value) => value === null,
        TTL_MS + 5000,
      );

    test('the handle says what it is', () => {
      assert.equal(r.kind, 'redis');
      assert.equal(r.state, 'open');
      assert.equal(r.embedded, store.name === 'memory');
      assert.equal(r.url, store.name === 'memory' ? 'memory: (in process)' : store.url);
    });

    test('GET of a missing key is null; SET then GET gives the text back, byte for byte', async () => {
      const k = unique();
      assert.equal(await r.get(k), null);
      for (const text of ['v', '', ' spaced  ', 'héllo wörld ✓ 🚀', '{"a":1}', 'line\r\nbreak', '\u0000nul']) {
        await r.set(k, text);
        assert.equal(await r.get(k), text);
      }
    });

    test('DEL and EXISTS count keys: 1 when there, 0 when not', async () => {
      const k = unique();
      assert.equal(await r.exists(k), 0);
      assert.equal(await r.del(k), 0);
      await r.set(k, 'x');
      assert.equal(await r.exists(k), 1);
      assert.equal(await r.del(k), 1);
      assert.equal(await r.exists(k), 0);
      assert.equal(await r.get(k), null);
    });

    test('INCR: a missing key starts at 0; integers count on; the reply is a number', async () => {
      const k = unique();
      assert.equal(await r.incr(k), 1);
      assert.equal(await r.incr(k), 2);
      await r.set(k, '-5');
      assert.equal(await r.incr(k), -4);
      assert.equal(await r.get(k), '-4');
      await r.set(k, '0');
      assert.equal(await r.incr(k), 1);
    });

    test('INCR past 2^53 stays exact (a BigInt), up to the 64-bit limit, which fails as Redis fails', async () => {
      const k = unique();
      await r.set(k, '9007199254740992');
      assert.equal(await r.incr(k), 9007199254740993n);
      await r.set(k, '9223372036854775806');
      assert.equal(await r.incr(k), 9223372036854775807n);
      const overflow = await r.incr(k).catch((e: unknown) => e);
      assert.ok(overflow instanceof ConnectorError);
      assert.equal(overflow.message, 'connection "redis" "cache": ERR increment or decrement would overflow');
      assert.equal(overflow.code, 'ERR');
      assert.equal(overflow.category, undefined, 'a failed command is not an outage');
    });

    test("INCR on anything but a 64-bit integer fails with Redis' own error text, and leaves the value", async () => {
      const k = unique();
      for (const text of ['abc', '1.5', ' 1', '1 ', '+1', '01', '-0', '', '0x10', '1e3', '9223372036854775808', '99999999999999999999']) {
        await r.set(k, text);
        const error = await r.incr(k).catch((e: unknown) => e);
        assert.ok(error instanceof ConnectorError, `INCR of ${JSON.stringify(text)} must fail`);
        assert.equal(error.message, 'connection "redis" "cache": ERR value is not an integer or out of range', JSON.stringify(text));
        assert.equal(error.code, 'ERR');
        assert.equal(await r.get(k), text);
      }
    });

    test('SET with a ttl expires the key; SET without one clears the ttl; INCR keeps it', async () => {
      const gone = unique();
      const kept = unique();
      const counter = unique();
      await r.set(gone, 'x', { ttlMs: TTL_MS });
      await r.set(kept, 'x', { ttlMs: TTL_MS });
      await r.set(kept, 'y');
      await r.set(counter, '1', { ttlMs: TTL_MS });
      assert.equal(await r.get(gone), 'x');
      assert.equal(await r.incr(counter), 2);

      assert.equal(await expired(gone), null);
      assert.equal(await r.exists(gone), 0);
      assert.equal(await expired(counter), null, 'INCR keeps the time-to-live');
      // Its time-to-live, had it kept one, was set before the counter's, which has passed.
      assert.equal(await r.get(kept), 'y', 'a plain SET removes the time-to-live');
    });

    test('EXPIRE: 1 and a time-to-live for an existing key, 0 for a missing one', async () => {
      const k = unique();
      assert.equal(await r.expire(k, 1000), 0);
      assert.equal(await r.exists(k), 0, 'EXPIRE does not create the key');
      await r.set(k, 'x');
      assert.equal(await r.expire(k, TTL_MS), 1);
      assert.equal(await r.get(k), 'x');
      assert.equal(await expired(k), null);
      assert.equal(await r.expire(k, 80), 0, 'an expired key is a missing key');
    });

    test('PUBLISH answers the subscriber connections reached: 0 without listeners, 1 with any number of them', async () => {
      const channel = unique('ch');
      assert.equal(await r.publish(channel, 'nobody'), 0);
      const a: string[] = [];
      const b: string[] = [];
      const sa = await r.subscribe(channel, (m) => a.push(m));
      const sb = await r.subscribe(channel, (m) => b.push(m));
      assert.equal(await r.publish(channel, 'one'), 1, 'one svc process: one subscriber connection');
      assert.equal(await r.publish(channel, '{"n":2}'), 1);
      await eventually(
        () => a.length + b.length,
        (n) => n === 4,
      );
      assert.deepEqual(a, ['one', '{"n":2}']);
      assert.deepEqual(b, ['one', '{"n":2}']);
      sa.unsubscribe();
      assert.equal(await r.publish(channel, 'three'), 1, 'one listener left');
      await eventually(
        () => b.length,
        (n) => n === 3,
      );
      sb.unsubscribe();
      sb.unsubscribe();
      // The UNSUBSCRIBE is sent when the last listener leaves; the server may answer a PUBLISH first.
      assert.equal(
        await eventually(
          () => r.publish(channel, 'after'),
          (n) => n === 0,
        ),
        0,
      );
      await sleep(30);
      assert.deepEqual(a, ['one', '{"n":2}']);
      assert.deepEqual(b, ['one', '{"n":2}', 'three']);
    });

    test('SUBSCRIBE fans out per channel: a listener hears its channels only, in publish order', async () => {
      const [x, y] = [unique('x'), unique('y')];
      const heard: string[] = [];
      const subs = await Promise.all([
        r.subscribe(x, (m) => heard.push(`1:${m}`)),
        r.subscribe(y, (m) => heard.push(`2:${m}`)),
        r.subscribe(x, (m) => heard.push(`3:${m}`)),
      ]);
      for (let i = 0; i < 5; i++) {
        await r.publish(x, `x${i}`);
        await r.publish(y, `y${i}`);
      }
      await eventually(
        () => heard.length,
        (n) => n === 15,
      );
      assert.deepEqual(
        heard.filter((h) => h.startsWith('1:')),
        ['1:x0', '1:x1', '1:x2', '1:x3', '1:x4'],
      );
      assert.deepEqual(
        heard.filter((h) => h.startsWith('2:')),
        ['2:y0', '2:y1', '2:y2', '2:y3', '2:y4'],
      );
      assert.equal(heard.filter((h) => h.startsWith('3:')).length, 5);
      for (const s of subs) s.unsubscribe();
      assert.equal(
        await eventually(
          () => r.publish(x, 'late'),
          (n) => n === 0,
        ),
        0,
      );
    });

    test('a channel left by its last listener and joined again is heard again', async () => {
      const channel = unique('again');
      const first = await r.subscribe(channel, () => {});
      first.unsubscribe();
      const heard: string[] = [];
      const second = await r.subscribe(channel, (m) => heard.push(m));
      assert.equal(await r.publish(channel, 'back'), 1);
      await eventually(
        () => heard.length,
        (n) => n === 1,
      );
      second.unsubscribe();
    });

    test('an aborted signal stops a command before it starts; a fired one abandons it', async () => {
      const controller = new AbortController();
      controller.abort(new Error('client gone'));
      const refused = await r.get(unique(), { signal: controller.signal }).catch((e: unknown) => e);
      assert.ok(refused instanceof ConnectorError);
      assert.equal(refused.category, 'cancelled');
      assert.match(refused.message, /GET cancelled \(client gone\)/);
      const zero = await r.get(unique(), { timeoutMs: 0 }).catch((e: unknown) => e);
      // A 0 ms time-out may lose the race against a reply that is already there: either is right.
      assert.ok(zero === null || (zero instanceof ConnectorError && zero.category === 'timeout'));
    });
  });
}
