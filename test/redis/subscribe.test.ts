/**
 * The SUBSCRIBE step's output `stream` (SPEC.md §6.2) at the step level, on both stores: a live
 * pulled source whose messages (published once the step has run) arrive in order, decoded once for
 * every consumer of the channel; a consumer that falls LIVE_BUFFER_LIMIT messages behind is cut off
 * with SourceOverflowError while the others keep receiving; the channel is left with its last
 * consumer, however it leaves (return(), overflow, the run's end, a teardown while the SUBSCRIBE was
 * under way), which the Redis server itself confirms (PUBSUB NUMSUB); Redis down fails the step as
 * dependency-unavailable, a 503, also for a consumer joining a channel already listened to.
 */
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { isLiveSource, SourceLostError, SourceOverflowError, type StepError, type Outcome, type StreamOutcome } from '../../graph/index.js';
import { failureStatus } from '../../src/http/failure.js';
import { ctx } from '../steps/helpers.js';
import { LIVE_BUFFER_LIMIT, type LiveChannelSource } from '../../src/steps/live-source.js';
import { eventually, haveRedisServer, redisServer, REAL_REDIS_URL, STORES, unique } from './helpers.js';
import { sourceOf, streamHarness, type StreamHarness } from './stream-harness.js';

const MANIFEST = `
connection "redis" "cache" {
  url = "{{REDIS}}"
}

endpoint "GET /feed/{room}" {
  request {
    path {
      field "room" {
        type = string
      }
    }
  }
  pipeline {
    redis "feed" {
      connection = connection.redis.cache
      command    = "SUBSCRIBE"
      channel    = ctx.request.path.room
    }
    respond {
      body = "the stream step reads steps.feed.stream"
    }
  }
}
`;

const harness = (url: string): Promise<StreamHarness> => streamHarness(MANIFEST.replace('{{REDIS}}', url));

function failureOf(outcome: Outcome): StepError {
  assert.equal(outcome.kind, 'error', `expected a failed run, got ${outcome.kind}`);
  return (outcome as { error: StepError }).error;
}

for (const store of STORES) {
  describe(`SUBSCRIBE stream on ${store.name}`, { skip: store.skip }, () => {
    let h: StreamHarness;
    let admin: Redis | undefined;
    before(async () => {
      h = await harness(store.url);
      if (store.name === 'redis') admin = new Redis(REAL_REDIS_URL!);
    });
    after(async () => {
      admin?.disconnect();
      await h?.close();
    });
    const publish = (channel: string, message: string) => h.connectors.handle('redis', 'cache').publish(channel, message);
    /**
     * Subscriber connections on the channel: the server's own count (PUBSUB NUMSUB); the memory store
     * has no server, so there it is what a PUBLISH reaches (a probe, which consumers then receive).
     */
    const subscribers = async (channel: string): Promise<number> => {
      if (admin === undefined) return Number(await publish(channel, '"probe"'));
      const [, count] = (await admin.pubsub('NUMSUB', channel)) as [string, number];
      return Number(count);
    };
    const leftEventually = (channel: string) =>
      eventually(
        () => subscribers(channel),
        (n) => n === 0,
      );

    test('messages published once the step has run arrive in order, decoded as GET decodes values; the source is live', async () => {
      const room = unique('room');
      const outcome = await h.stream({ room });
      const source = sourceOf<LiveChannelSource>(outcome);
      assert.equal(isLiveSource(source), true, 'live: the response starts before the first message');
      assert.equal(await subscribers(room), 1, 'subscribed when the step answered');
      const sent = ['{"id":1,"tags":["a"]}', 'plain text', '42', '[true,null]', ...Array.from({ length: 50 }, (_, i) => `{"n":${i}}`)];
      for (const m of sent) await publish(room, m);
      const got: unknown[] = [];
      for await (const m of source) {
        if (m === 'probe') continue;
        got.push(m);
        if (got.length === sent.length) break;
      }
      assert.deepEqual(got.slice(0, 4), [{ id: 1, tags: ['a'] }, 'plain text', 42, [true, null]]);
      assert.deepEqual(
        got.slice(4),
        Array.from({ length: 50 }, (_, i) => ({ n: i })),
      );
      assert.equal(source.released, true, 'leaving the loop (return()) left the channel');
      assert.equal(await leftEventually(room), 0, 'the last consumer gone: the channel is unsubscribed');
      outcome.dispose('cancel');
    });

    test('consumers of a channel share one decode per message; the channel is left with the last of them', async () => {
      const room = unique('shared');
      const [a, b] = [await h.stream({ room }), await h.stream({ room })];
      const [sa, sb] = [sourceOf<LiveChannelSource>(a), sourceOf<LiveChannelSource>(b)];
      const [ia, ib] = [sa[Symbol.asyncIterator](), sb[Symbol.asyncIterator]()];
      await publish(room, '{"n":1,"deep":{"x":[1,2]}}');
      const [va, vb] = [(await ia.next()).value, (await ib.next()).value];
      assert.deepEqual(va, { n: 1, deep: { x: [1, 2] } });
      assert.equal(va, vb, 'the very same decoded value: decoded once, not once per consumer');

      // A pull waiting for a message ends when its consumer returns.
      const waiting = ia.next();
      await ia.return!();
      assert.deepEqual(await waiting, { done: true, value: undefined });
      assert.deepEqual(await ia.next(), { done: true, value: undefined });
      assert.equal(await subscribers(room), 1, 'b still listens, on the one subscription');
      await publish(room, '"after a left"');
      let next = await ib.next();
      while (next.value === 'probe') next = await ib.next();
      assert.equal(next.value, 'after a left');
      a.dispose('cancel');

      b.dispose('cancel'); // the run's end releases the step: b leaves without its reader returning
      assert.equal(sb.released, true);
      assert.equal(await leftEventually(room), 0);
      assert.throws(() => sb[Symbol.asyncIterator](), /can be read only once/);
    });

    test(`a consumer that never pulls is cut off past ${LIVE_BUFFER_LIMIT} messages (SourceOverflowError); another keeps receiving`, async () => {
      const room = unique('flood');
      const [slow, live] = [await h.stream({ room }), await h.stream({ room })];
      const [ss, sl] = [sourceOf<LiveChannelSource>(slow), sourceOf<LiveChannelSource>(live)];
      const got: unknown[] = [];
      const total = LIVE_BUFFER_LIMIT + 10;
      const reading = (async () => {
        for await (const m of sl) if (got.push(m) === total) break;
      })();
      const received = (n: number) =>
        eventually(
          () => got.length,
          (length) => length >= n,
          5000,
        );
      let sent = 0;
      const send = async (n: number) => {
        for (const end = sent + n; sent < end; ) await publish(room, String(sent++));
      };

      await send(LIVE_BUFFER_LIMIT);
      await received(LIVE_BUFFER_LIMIT);
      assert.equal(ss.buffered, LIVE_BUFFER_LIMIT, 'the slow consumer holds a full buffer');
      assert.equal(ss.released, false);
      await send(1);
      await received(LIVE_BUFFER_LIMIT + 1);
      assert.equal(ss.released, true, 'one more: cut off, and its channel listener left');
      assert.equal(ss.buffered, 0, 'its buffer dropped at once, not when it is next read');
      const it = ss[Symbol.asyncIterator]();
      await assert.rejects(it.next(), (e: unknown) => e instanceof SourceOverflowError && /redis "feed".*1000 messages behind/.test(e.message));
      assert.deepEqual(await it.next(), { done: true, value: undefined });
      slow.dispose('error', new SourceOverflowError('cut off'));

      await send(total - sent);
      await reading;
      assert.deepEqual(
        got,
        Array.from({ length: total }, (_, i) => i),
        'the other consumer got every message, in order',
      );
      live.dispose('cancel');
      assert.equal(await leftEventually(room), 0);
    });

    test('the run ends (the outcome disposed) before anyone read: the channel is left', async () => {
      const room = unique('unread');
      const outcome = await h.stream({ room });
      assert.equal(await subscribers(room), 1);
      outcome.dispose('cancel');
      assert.equal(sourceOf<LiveChannelSource>(outcome).released, true);
      assert.equal(await leftEventually(room), 0);
    });

    test('torn down while the SUBSCRIBE is under way: the channel is left once it is answered, and can be joined again', async () => {
      const room = unique('hasty');
      const run = h.graph.run({ steps: {}, ctx: ctx({ path: { room } }) });
      const outcomes: Outcome[] = [];
      run.subscribe((o) => outcomes.push(o)).unsubscribe();
      // The UNSUBSCRIBE goes out only once the SUBSCRIBE is answered, which takes what it takes.
      assert.equal(await leftEventually(room), 0);
      assert.deepEqual(outcomes, []);
      const again = await h.stream({ room });
      assert.equal(await subscribers(room), 1, 'a later consumer subscribes anew');
      again.dispose('cancel');
      assert.equal(await leftEventually(room), 0);
    });
  });
}

test('a SUBSCRIBE on a closed connection fails the step as dependency-unavailable: a 503', async () => {
  const h = await harness('memory:');
  await h.close();
  const error = failureOf(await h.run({ room: 'x' }));
  assert.equal(error.category, 'dependency-unavailable');
  assert.equal(failureStatus(error.category), 503);
  assert.match(String((error.cause as Error).message), /connection "redis" "cache" is closed/);
});

const ownSkip = haveRedisServer() ? false : 'redis-server is not installed (the test command installs it)';

test('Redis down: a new SUBSCRIBE and one joining a channel already listened to both fail as dependency-unavailable', { skip: ownSkip }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-redis-subscribe-'));
  const url = redisServer('start', dir);
  const h = await harness(url);
  try {
    const listened = unique('listened');
    const first = (await h.stream({ room: listened })) as StreamOutcome;
    redisServer('halt', dir);
    const handle = h.connectors.handle('redis', 'cache');
    await eventually(
      () => handle.subscribeRefusal(),
      (refusal) => refusal !== undefined,
      5000,
    );
    for (const room of [unique('fresh'), listened]) {
      const started = performance.now();
      const error = failureOf(await h.run({ room }));
      assert.equal(error.category, 'dependency-unavailable', room);
      assert.equal(failureStatus(error.category), 503);
      // Generous for a loaded machine: waiting for the connection would take its 10 s acquire time-out.
      const ms = performance.now() - started;
      assert.ok(ms < 2000, `refused at once, not after a wait: ${ms} ms`);
    }
    // The consumer already listening lost its subscription with the connection: it is told, and ends.
    const lost = sourceOf<LiveChannelSource>(first);
    assert.equal(lost.released, true, 'the consumer already listening was told of the loss');
    await assert.rejects(lost[Symbol.asyncIterator]().next(), SourceLostError);
    first.dispose('cancel');
  } finally {
    await h.close();
    redisServer('stop', dir);
  }
});
