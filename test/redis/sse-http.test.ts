/**
 * SSE fed by SUBSCRIBE, end to end over HTTP on both stores: a POST endpoint publishes, every SSE
 * client on the channel gets each message in order; one subscription serves them all; clients that
 * leave release it; a client that cannot keep up is cut off while the others go on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { serveManifest } from '../http/helpers.js';
import { listenLocal, open, readUntil, until } from '../http/stream-helpers.js';
import { Redis } from 'ioredis';
import { STORES, eventually, unique } from './helpers.js';

function manifest(url: string, channel: string): string {
  return `
    connection "redis" "bus" {
      url = "${url}"
    }
    endpoint "GET /events" {
      pipeline {
        redis "feed" {
          connection = connection.redis.bus
          command    = "SUBSCRIBE"
          channel    = "${channel}"
        }
        stream "sse" {
          source = steps.feed.stream
          event  = "note"
          id     = item.seq
        }
      }
    }
    endpoint "POST /events" {
      request {
        body {
          field "seq" {
            type = integer
          }
          field "text" {
            type = string
          }
        }
      }
      pipeline {
        redis "publish" {
          connection = connection.redis.bus
          command    = "PUBLISH"
          channel    = "${channel}"
          value      = ctx.request.body
        }
        respond {
          status = 202
          body   = { receivers = steps.publish.value }
        }
      }
    }
  `;
}

async function publish(url: string, seq: number, text = `note ${seq}`): Promise<number> {
  const res = await fetch(`${url}/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seq, text }) });
  assert.equal(res.status, 202);
  return ((await res.json()) as { receivers: number }).receivers;
}

/** The server's count of subscriber connections on a channel (real Redis only): PUBSUB NUMSUB. */
async function serverSubscribers(redisUrl: string, channel: string): Promise<number> {
  const admin = new Redis(redisUrl);
  try {
    const [, count] = (await admin.pubsub('NUMSUB', channel)) as [string, number];
    return Number(count);
  } finally {
    admin.disconnect();
  }
}

for (const store of STORES) {
  test(`${store.name}: 25 SSE clients each get every published message, in order, from one subscription`, { skip: store.skip }, async () => {
    const channel = unique('sse');
    const served = await serveManifest(manifest(store.url, channel));
    const url = await listenLocal(served.app);
    const clients: IncomingMessage[] = [];
    try {
      for (let i = 0; i < 25; i++) clients.push(await open(`${url}/events`));
      for (const c of clients) assert.equal(c.headers['content-type'], 'text/event-stream');
      // The subscriptions are made as each request runs; wait until the last one listens.
      const receivers = await eventually(
        () => publish(url, 0, 'warm-up'),
        (n) => n >= 1,
      );
      assert.equal(receivers, 1, 'one subscriber connection per process, not one per client');
      for (let seq = 1; seq <= 5; seq++) await publish(url, seq);
      const bodies = await Promise.all(clients.map((c) => readUntil(c, 'id: 5\n')));
      for (const body of bodies) {
        const ids = [...body.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])).filter((n) => n > 0);
        assert.deepEqual(ids, [1, 2, 3, 4, 5]);
        assert.ok(body.includes('id: 3\nevent: note\ndata: {"seq":3,"text":"note 3"}\n\n'), body);
      }
      if (store.name === 'redis') assert.equal(await serverSubscribers(store.url, channel), 1);
      for (const c of clients) c.destroy();
      if (store.name === 'redis') {
        const left = await eventually(
          () => serverSubscribers(store.url, channel),
          (n) => n === 0,
        );
        assert.equal(left, 0, 'the channel is unsubscribed once its last client left');
      }
      await until(() => served.log.requests().filter((l) => l.url === '/events' && l.method === 'GET').length === 25);
      const lines = served.log.requests().filter((l) => l.method === 'GET');
      assert.ok(lines.every((l) => (l.stream as { ended: string }).ended === 'client closed'));
    } finally {
      for (const c of clients) c.destroy();
      await served.close();
    }
  });

  test(`${store.name}: a client that stops reading is cut off (client too slow); the others keep receiving`, { skip: store.skip }, async () => {
    const channel = unique('slow');
    const served = await serveManifest(manifest(store.url, channel));
    const url = await listenLocal(served.app);
    const slow = await open(`${url}/events`);
    const fast = await open(`${url}/events`);
    try {
      slow.pause();
      let fastBody = '';
      fast.on('data', (c: Buffer) => (fastBody += c.toString()));
      await eventually(
        () => publish(url, 0, 'warm-up'),
        (n) => n >= 1,
      );
      // Each message is ~64 KiB: the socket buffers fill after a few dozen, then the slow client's
      // buffer of 1,000 messages, then it is cut off.
      const text = 'x'.repeat(64 * 1024);
      for (let seq = 1; seq <= 1300; seq++) await publish(url, seq, text);
      await until(() => fastBody.includes('id: 1300\n'), 20_000);
      await until(() => served.log.requests().some((l) => l.cancelled === 'client too slow'), 10_000);
      const cut = served.log.requests().find((l) => l.cancelled === 'client too slow')!;
      assert.equal((cut.stream as { ended: string }).ended, 'client too slow');
    } finally {
      slow.destroy();
      fast.destroy();
      await served.close();
    }
  });
}
