/**
 * SSE streams that resume from Last-Event-ID (issue 30, item 1), end to end over HTTP, with a table
 * as the log: on PGlite with the `memory:` store and on the real PostgreSQL with the real Redis, the
 * live source being LISTEN/NOTIFY or a Redis channel. A client that leaves, misses 1,000 events and
 * comes back with its last id receives exactly those, then the live ones, in order, none twice; the
 * same while events are published without pause during its reconnect (the race between the replay's
 * snapshot and the live source); a client whose last id was deleted from the log gets `event: gap`.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { listenLocal, open } from '../http/stream-helpers.js';
import { REAL_REDIS_URL } from '../redis/helpers.js';
import { closeTargets, eventually, serve, TARGETS, type ServedManifest } from './helpers.js';

after(closeTargets);

const MANIFEST = `
connection "postgres" "db" {
  url = "{{DB}}"
}
connection "redis" "bus" {
  url = "{{REDIS}}"
}

endpoint "GET /listen" {
  request {
    headers {
      field "last-event-id" {
        type = integer
      }
    }
  }
  pipeline {
    sql "live" {
      connection = connection.postgres.db
      listen     = "events"
    }
    sql "missed" {
      connection = connection.postgres.db
      query      = "SELECT seq, body FROM events WHERE seq >= @last ORDER BY seq"
      args       = { last = ctx.request.headers["last-event-id"] }
      stream     = true
    }
    stream "sse" {
      source = steps.live.stream
      replay = steps.missed.stream
      id     = item.seq
    }
  }
}

endpoint "GET /pubsub" {
  request {
    headers {
      field "last-event-id" {
        type = integer
      }
    }
  }
  pipeline {
    redis "live" {
      connection = connection.redis.bus
      command    = "SUBSCRIBE"
      channel    = "{{CHANNEL}}"
    }
    sql "missed" {
      connection = connection.postgres.db
      query      = "SELECT seq, body FROM events WHERE seq >= @last ORDER BY seq"
      args       = { last = ctx.request.headers["last-event-id"] }
      stream     = true
    }
    stream "sse" {
      source = steps.live.stream
      replay = steps.missed.stream
      id     = item.seq
    }
  }
}

# One event: kept, notified (on commit) and published.
endpoint "POST /one" {
  pipeline {
    sql "saved" {
      connection = connection.postgres.db
      query      = <<-SQL
        WITH e AS (INSERT INTO events (body) VALUES ('one') RETURNING seq, body)
        SELECT seq, body, pg_notify('events', json_build_object('seq', seq, 'body', body)::text) AS notified FROM e
      SQL
    }
    redis "announce" {
      connection = connection.redis.bus
      command    = "PUBLISH"
      channel    = "{{CHANNEL}}"
      value      = { seq = steps.saved.row.seq, body = steps.saved.row.body }
    }
    respond {
      body = { seq = steps.saved.row.seq }
    }
  }
}

# Many events at once, each kept and notified.
endpoint "POST /many/{n}" {
  request {
    path {
      field "n" {
        type = integer
      }
    }
  }
  pipeline {
    sql "saved" {
      connection = connection.postgres.db
      query      = <<-SQL
        WITH e AS (INSERT INTO events (body) SELECT 'many ' || g FROM generate_series(1, @n) g RETURNING seq, body)
        SELECT max(seq) AS last, count(pg_notify('events', json_build_object('seq', seq, 'body', body)::text)) AS n FROM e
      SQL
      args = { n = ctx.request.path.n }
    }
    respond {
      body = steps.saved.row
    }
  }
}
`;

/** An SSE response read as it comes: its text so far and the ids in it. */
function reader(res: IncomingMessage): { text: () => string; ids: () => number[] } {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  return { text: () => text, ids: () => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])) };
}

async function connect(url: string, last?: number): Promise<{ res: IncomingMessage; text: () => string; ids: () => number[] }> {
  const res = await open(url, last === undefined ? {} : { 'last-event-id': String(last) });
  assert.equal(res.statusCode, 200);
  return { res, ...reader(res) };
}

async function postJson(url: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: 'POST' });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as Record<string, unknown>;
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

async function idsUntil(client: { ids: () => number[] }, last: number, ms = 20_000): Promise<number[]> {
  return eventually(client.ids, (ids) => ids.includes(last), ms);
}

let channels = 0;

for (const target of TARGETS) {
  const redisUrl = target.name === 'pglite' ? 'memory:' : REAL_REDIS_URL;
  const skip = target.skip || (redisUrl === undefined ? 'no Redis server (npm test starts one)' : false);
  const pair = `${target.name} with ${target.name === 'pglite' ? 'memory:' : 'redis'}`;

  async function served(): Promise<ServedManifest> {
    const channel = `resume-${process.pid}-${++channels}`;
    const manifest = MANIFEST.replaceAll('{{REDIS}}', redisUrl!).replaceAll('{{CHANNEL}}', channel);
    const s = await serve(manifest, await target.fresh());
    await s.db.query('CREATE TABLE events (seq serial PRIMARY KEY, body text NOT NULL)');
    return s;
  }

  for (const live of ['listen', 'pubsub'] as const) {
    test(`${pair}, ${live}: a client back after 1,000 missed events gets exactly those, then the live ones, in order, none twice`, {
      skip,
      timeout: 120_000,
    }, async () => {
      const s = await served();
      const url = await listenLocal(s.app);
      try {
        const first = await connect(`${url}/${live}`);
        for (let i = 0; i < 5; i++) await postJson(`${url}/one`);
        assert.deepEqual(await idsUntil(first, 5), range(1, 5));
        first.res.destroy();

        assert.equal((await postJson(`${url}/many/1000`)).last, 1005);
        const back = await connect(`${url}/${live}`, 5);
        assert.deepEqual(await idsUntil(back, 1005), range(6, 1005));
        for (let i = 0; i < 3; i++) await postJson(`${url}/one`);
        assert.deepEqual(await idsUntil(back, 1008), range(6, 1008));
        assert.ok(!back.text().includes('event: gap'));
        back.res.destroy();
      } finally {
        await s.close();
      }
    });

    test(`${pair}, ${live}: events published without pause during the reconnect: none lost, none twice`, {
      skip,
      timeout: 120_000,
    }, async () => {
      const s = await served();
      const url = await listenLocal(s.app);
      let publishing = true;
      let published = 0;
      const publisher = (async () => {
        while (publishing) published = (await postJson(`${url}/one`)).seq as number;
      })();
      try {
        const first = await connect(`${url}/${live}`);
        await eventually(first.ids, (ids) => ids.length >= 20, 20_000);
        first.res.destroy();
        const last = first.ids().at(-1)!;
        await eventually(
          () => published,
          (n) => n >= last + 30,
          20_000,
        );
        const back = await connect(`${url}/${live}`, last);
        await eventually(back.ids, (ids) => ids.length >= 50, 20_000);
        publishing = false;
        await publisher;
        const ids = await idsUntil(back, published);
        assert.deepEqual(ids, range(last + 1, published));
        back.res.destroy();
      } finally {
        publishing = false;
        await publisher;
        await s.close();
      }
    });
  }

  test(`${pair}: a client whose last id was deleted from the log gets event: gap naming it, then the rest`, { skip, timeout: 60_000 }, async () => {
    const s = await served();
    const url = await listenLocal(s.app);
    try {
      await postJson(`${url}/many/20`);
      await s.db.query('DELETE FROM events WHERE seq <= 12');
      const back = await connect(`${url}/listen`, 4);
      await idsUntil(back, 20);
      const text = back.text();
      assert.match(text, /^event: gap\ndata: \{"reason":"not kept","last_event_id":"4","first_lost":"5","resumes_at":"13"\}\n\n/m);
      assert.ok(text.indexOf('event: gap') < text.indexOf('id: 13'), 'the gap comes before what follows it');
      assert.deepEqual(back.ids(), range(13, 20));
      back.res.destroy();
    } finally {
      await s.close();
    }
  });
}
