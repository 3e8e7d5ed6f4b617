/**
 * A Redis stream key as a live SSE feed, end to end over HTTP on both stores: a POST endpoint adds
 * entries (XADD), every SSE client of the key (XREAD) gets each entry in order with its entry id as
 * the SSE id, from one reader connection per key; XRANGE / XREVRANGE endpoints read the log back.
 * On a Redis server of the test's own, the reader connection is killed (CLIENT KILL TYPE normal):
 * the clients' streams go on, and entries added while it was down arrive, in order, none twice.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { serveManifest } from '../http/helpers.js';
import { listenLocal, open, readUntil } from '../http/stream-helpers.js';
import { haveRedisServer, redisServer, STORES, unique } from './helpers.js';

function manifest(url: string, key: string): string {
  return `
    connection "redis" "bus" {
      url = "${url}"
    }
    endpoint "GET /feed" {
      pipeline {
        redis "tail" {
          connection = connection.redis.bus
          command    = "XREAD"
          key        = "${key}"
        }
        stream "sse" {
          source = steps.tail.stream
          id     = item.id
          event  = "note"
        }
      }
    }
    endpoint "POST /notes" {
      request {
        body {
          field "seq" {
            type = integer
          }
        }
      }
      pipeline {
        redis "add" {
          connection = connection.redis.bus
          command    = "XADD"
          key        = "${key}"
          fields     = { seq = ctx.request.body.seq, text = "note \${ctx.request.body.seq}" }
          maxlen     = 1000
        }
        respond {
          status = 201
          body   = { id = steps.add.value }
        }
      }
    }
    endpoint "POST /clobber" {
      pipeline {
        redis "text" {
          connection = connection.redis.bus
          command    = "SET"
          key        = "${key}"
          value      = "no longer a stream"
        }
        respond {
          body = {}
        }
      }
    }
    endpoint "GET /notes" {
      request {
        query {
          field "limit" {
            type    = integer
            default = 3
          }
        }
      }
      pipeline {
        redis "latest" {
          connection = connection.redis.bus
          command    = "XREVRANGE"
          key        = "${key}"
          count      = ctx.request.query.limit
        }
        respond {
          body = steps.latest.value
        }
      }
    }
  `;
}

async function add(url: string, seq: number): Promise<string> {
  const res = await fetch(`${url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seq }) });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { id: string }).id;
}

/** The SSE ids of a body, in order. */
const idsOf = (body: string): string[] => [...body.matchAll(/^id: (.+)$/gm)].map((m) => m[1]!);

/** The server's connections named svc-stream-reader (CLIENT LIST). */
async function readerConnections(redisUrl: string): Promise<number> {
  const admin = new Redis(redisUrl);
  try {
    const list = (await admin.call('CLIENT', 'LIST')) as string;
    return list.split('\n').filter((line) => line.includes('name=svc-stream-reader')).length;
  } finally {
    admin.disconnect();
  }
}

for (const store of STORES) {
  test(`${store.name}: 10 SSE clients of a stream key each get every entry added, in order, with its entry id as the SSE id`, {
    skip: store.skip,
  }, async () => {
    const key = unique('feed');
    const served = await serveManifest(manifest(store.url, key));
    const url = await listenLocal(served.app);
    const clients: IncomingMessage[] = [];
    try {
      const before = await add(url, 0);
      for (let i = 0; i < 10; i++) clients.push(await open(`${url}/feed`));
      for (const c of clients) assert.equal(c.headers['content-type'], 'text/event-stream');
      const ids: string[] = [];
      for (let seq = 1; seq <= 5; seq++) ids.push(await add(url, seq));
      const bodies = await Promise.all(clients.map((c) => readUntil(c, `id: ${ids[4]}\n`)));
      for (const body of bodies) {
        assert.deepEqual(idsOf(body), ids, 'the entries added once the client listens, not the one before');
        assert.ok(!body.includes(before));
        assert.ok(body.includes(`id: ${ids[2]}\nevent: note\ndata: {"id":"${ids[2]}","fields":{"seq":3,"text":"note 3"}}\n\n`), body);
      }
      if (store.name === 'redis') assert.equal(await readerConnections(store.url), 1, 'one reader connection for the key, not one per client');

      const latest = await fetch(`${url}/notes?limit=2`);
      assert.equal(latest.status, 200);
      assert.deepEqual(await latest.json(), [
        { id: ids[4], fields: { seq: 5, text: 'note 5' } },
        { id: ids[3], fields: { seq: 4, text: 'note 4' } },
      ]);
    } finally {
      for (const c of clients) c.destroy();
      await served.close();
    }
  });

  test(`${store.name}: XADD, XREAD and XREVRANGE of a key holding a string answer a 500 problem that shows nothing of Redis`, {
    skip: store.skip,
  }, async () => {
    const key = unique('text');
    const served = await serveManifest(manifest(store.url, key));
    const url = await listenLocal(served.app);
    try {
      const setup = await fetch(`${url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seq: 1 }) });
      assert.equal(setup.status, 201);
      assert.equal((await fetch(`${url}/clobber`, { method: 'POST' })).status, 200);
      for (const res of [
        await fetch(`${url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seq: 2 }) }),
        await fetch(`${url}/feed`),
        await fetch(`${url}/notes`),
      ]) {
        assert.equal(res.status, 500);
        assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
        assert.doesNotMatch(await res.text(), /WRONGTYPE/);
      }
    } finally {
      await served.close();
    }
  });
}

const own: string[] = [];
after(() => {
  for (const dir of own.splice(0)) redisServer('stop', dir);
});

test('a killed reader connection comes back and delivers the entries added while it was down, in order, none twice', {
  skip: haveRedisServer() ? false : 'redis-server is not installed (the test command installs it)',
  timeout: 60_000,
}, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-redis-streams-'));
  own.push(dir);
  const redisUrl = redisServer('start', dir);
  const key = unique('outage');
  const served = await serveManifest(manifest(redisUrl, key));
  const url = await listenLocal(served.app);
  const admin = new Redis(redisUrl);
  const clients: IncomingMessage[] = [];
  try {
    for (let i = 0; i < 3; i++) clients.push(await open(`${url}/feed`));
    const first = await add(url, 1);
    await Promise.all(clients.map((c) => readUntil(c, `id: ${first}\n`)));
    const bodies = clients.map((c) => {
      let text = '';
      c.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      c.resume();
      return () => text;
    });

    // Every normal connection but the admin's: svc's command connection and its reader.
    const killed = Number(await admin.call('CLIENT', 'KILL', 'TYPE', 'normal'));
    assert.ok(killed >= 2, `killed ${killed}`);
    // Added at once, while the reader reconnects (its first attempt is 50 ms away at the earliest).
    const whileDown: string[] = [];
    for (let seq = 2; seq <= 41; seq++) whileDown.push((await admin.xadd(key, '*', 'seq', String(seq), 'text', `note ${seq}`)) as string);
    const afterwards: string[] = [];
    for (let seq = 42; seq <= 46; seq++) afterwards.push(await addRetrying(url, seq));
    const expected = [...whileDown, ...afterwards];
    const last = expected.at(-1)!;
    const deadline = Date.now() + 20_000;
    while (bodies.some((b) => !b().includes(`id: ${last}\n`)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    for (const body of bodies) {
      assert.deepEqual(idsOf(body()), expected, 'every entry once, in order, no gap');
      assert.doesNotMatch(body(), /event: gap/);
    }
    for (const c of clients) assert.ok(!c.destroyed && !c.complete, 'the streams were not ended');
    assert.equal(await readerConnections(redisUrl), 1, 'the reader reconnected, once');
  } finally {
    for (const c of clients) c.destroy();
    admin.disconnect();
    await served.close();
  }
});

/** XADD through svc, again while its command connection is still coming back (a 503 meanwhile). */
async function addRetrying(url: string, seq: number): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seq }) });
    if (res.status === 201) return ((await res.json()) as { id: string }).id;
    assert.equal(res.status, 503);
    assert.ok(attempt < 100, 'svc reconnects');
    await new Promise((r) => setTimeout(r, 50));
  }
}
