/**
 * SSE streams that resume from Last-Event-ID with a Redis stream as the log (issue 30, items 1 and
 * 2), end to end over HTTP on both stores (`memory:` and the real Redis): XREAD is the live source,
 * XRANGE from the client's last id the replay, entry ids the SSE ids. A client back after 1,000
 * missed entries gets exactly those, then the live ones, in order, none twice; the same while
 * entries are added without pause during its reconnect; a client whose last id was trimmed away
 * (MINID) gets `event: gap` naming it, then what is kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { serveManifest } from '../http/helpers.js';
import { listenLocal, open } from '../http/stream-helpers.js';
import { eventually, STORES, unique } from './helpers.js';

function manifest(url: string, key: string): string {
  return `
    connection "redis" "bus" {
      url = "${url}"
    }
    endpoint "GET /feed" {
      request {
        headers {
          field "last-event-id" {
            type    = string
            pattern = "^[0-9]+-[0-9]+$"
          }
        }
      }
      pipeline {
        redis "live" {
          connection = connection.redis.bus
          command    = "XREAD"
          key        = "${key}"
        }
        # From the client's last id on, that one included; "+" (past every id): nothing, on a first connection.
        redis "missed" {
          connection = connection.redis.bus
          command    = "XRANGE"
          key        = "${key}"
          start      = coalesce(ctx.request.headers["last-event-id"], "+")
        }
        stream "sse" {
          source = steps.live.stream
          replay = steps.missed.value
          id     = item.id
        }
      }
    }
    endpoint "POST /notes" {
      request {
        query {
          field "minid" {
            type = string
          }
        }
      }
      pipeline {
        redis "add" {
          connection = connection.redis.bus
          command    = "XADD"
          key        = "${key}"
          fields     = { text = "note" }
          minid      = coalesce(ctx.request.query.minid, "0-1")
        }
        respond {
          status = 201
          body   = { id = steps.add.value }
        }
      }
    }
  `;
}

async function add(url: string, minid?: string): Promise<string> {
  const res = await fetch(`${url}/notes${minid === undefined ? '' : `?minid=${minid}`}`, { method: 'POST' });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { id: string }).id;
}

async function addMany(url: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await add(url));
  return ids;
}

function reader(res: IncomingMessage): { text: () => string; ids: () => string[] } {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  return { text: () => text, ids: () => [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1]!) };
}

async function connect(url: string, last?: string): Promise<{ res: IncomingMessage; text: () => string; ids: () => string[] }> {
  const res = await open(`${url}/feed`, last === undefined ? {} : { 'last-event-id': last });
  assert.equal(res.statusCode, 200);
  return { res, ...reader(res) };
}

const idsUntil = (client: { ids: () => string[] }, id: string): Promise<string[]> => eventually(client.ids, (ids) => ids.includes(id), 20_000);

for (const store of STORES) {
  test(`${store.name}: a client back after 1,000 missed entries gets exactly those, then the live ones, in order, none twice`, {
    skip: store.skip,
    timeout: 120_000,
  }, async () => {
    const served = await serveManifest(manifest(store.url, unique('resume')));
    const url = await listenLocal(served.app);
    try {
      const first = await connect(url);
      const seen = await addMany(url, 5);
      assert.deepEqual(await idsUntil(first, seen[4]!), seen);
      first.res.destroy();

      const missed = await addMany(url, 1000);
      const back = await connect(url, seen[4]);
      assert.deepEqual(await idsUntil(back, missed[999]!), missed);
      const live = await addMany(url, 3);
      assert.deepEqual(await idsUntil(back, live[2]!), [...missed, ...live]);
      assert.ok(!back.text().includes('event: gap'));
      back.res.destroy();
    } finally {
      await served.close();
    }
  });

  test(`${store.name}: entries added without pause during the reconnect: none lost, none twice`, { skip: store.skip, timeout: 120_000 }, async () => {
    const served = await serveManifest(manifest(store.url, unique('resume-race')));
    const url = await listenLocal(served.app);
    const added: string[] = [];
    let adding = true;
    const adder = (async () => {
      while (adding) added.push(await add(url));
    })();
    try {
      const first = await connect(url);
      await eventually(first.ids, (ids) => ids.length >= 20, 20_000);
      first.res.destroy();
      const last = first.ids().at(-1)!;
      await eventually(
        () => added.length,
        (n) => n >= added.indexOf(last) + 30,
        20_000,
      );
      const back = await connect(url, last);
      await eventually(back.ids, (ids) => ids.length >= 50, 20_000);
      adding = false;
      await adder;
      assert.deepEqual(await idsUntil(back, added.at(-1)!), added.slice(added.indexOf(last) + 1));
      back.res.destroy();
    } finally {
      adding = false;
      await adder;
      await served.close();
    }
  });

  test(`${store.name}: a client whose last id was trimmed away gets event: gap naming it, then what is kept`, {
    skip: store.skip,
    timeout: 60_000,
  }, async () => {
    const served = await serveManifest(manifest(store.url, unique('resume-gap')));
    const url = await listenLocal(served.app);
    try {
      const ids = await addMany(url, 150);
      // MINID is approximate (~): Redis drops whole nodes of entries below it, the memory store every one.
      ids.push(await add(url, ids[139]));
      const back = await connect(url, ids[49]);
      await idsUntil(back, ids[150]!);
      const text = back.text();
      const gap = /^event: gap\ndata: (\{.*\})\n\n/m.exec(text);
      assert.ok(gap, text.slice(0, 300));
      const detail = JSON.parse(gap[1]!) as Record<string, string>;
      const received = back.ids();
      assert.deepEqual(detail, {
        reason: 'not kept',
        last_event_id: ids[49],
        first_lost: ids[49]!.replace(/-(\d+)$/, (_, seq) => `-${Number(seq) + 1}`),
        resumes_at: received[0],
      });
      assert.ok(text.indexOf('event: gap') < text.indexOf(`id: ${received[0]}`));
      const from = ids.indexOf(received[0]!);
      assert.ok(from > 49 && from <= 139, `resumes at the first entry kept (#${from})`);
      assert.deepEqual(received, ids.slice(from));
      back.res.destroy();
    } finally {
      await served.close();
    }
  });
}
