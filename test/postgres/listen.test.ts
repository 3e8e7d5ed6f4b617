/**
 * PostgreSQL LISTEN/NOTIFY as a live source (issue 30, item 3), on the real server, in a database
 * of the file's own, over real sockets: SSE and ndjson clients of a `sql { listen }` step receive
 * what another endpoint's `pg_notify` sends (JSON payloads decoded, text kept text), over one
 * listening connection for every channel and client; a NOTIFY in a transaction that rolls back is
 * never delivered; the listening connection killed with pg_terminate_backend ends every stream on
 * it (sse: `event: gap`, then the end; ndjson: cut short) with one warning per channel, and a client
 * that comes back listens on a new connection and receives what is notified next. PGlite listens
 * another way: test/postgres/listen-pglite.test.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { fetchAll, open, readUntil } from '../http/stream-helpers.js';
import { closeTargets, eventually, NO_REAL_POSTGRES, REAL_POSTGRES_URL, TARGETS } from './helpers.js';
import { deliveredTo, listenerPids, post, rest, type Served, serve } from './listen-helpers.js';

after(closeTargets);

const skip = REAL_POSTGRES_URL === undefined ? NO_REAL_POSTGRES : false;

const real = TARGETS.find((t) => t.name === 'postgres')!;
let served: Served;

before(async () => {
  if (skip) return;
  served = await serve(await real.fresh());
});

after(async () => {
  await served?.close();
});

test('SSE and ndjson clients receive what another endpoint notifies, over one listening connection for every channel and client', {
  skip,
  timeout: 60_000,
}, async () => {
  const clients: IncomingMessage[] = [];
  try {
    for (let i = 0; i < 3; i++) clients.push(await open(`${served.url}/events`));
    const ndjson = await open(`${served.url}/events.ndjson`);
    const room = await open(`${served.url}/rooms/lobby`);
    clients.push(ndjson, room);
    for (const c of clients) assert.equal(c.statusCode, 200);
    assert.equal(clients[0]!.headers['content-type'], 'text/event-stream');

    const sse = clients.slice(0, 3);
    const bodies = await deliveredTo(served, sse, 'id: 1\n', 1);
    for (const body of bodies) assert.match(body, /id: 1\ndata: \{"seq":1\}\n\n/, 'the JSON payload, decoded: its seq is the event id');
    assert.match(await readUntil(ndjson, '\n'), /^\{"seq":1\}\n$/);

    // Text that is not JSON stays text.
    assert.equal(await post(`${served.url}/rooms/lobby/say`, { text: 'hello, lobby' }), 202);
    assert.match(await readUntil(room, 'hello, lobby'), /^data: hello, lobby\n\n$/, 'the text as it was sent, not a JSON string');

    assert.equal((await listenerPids(served.db)).length, 1, 'one listening connection for two channels and five clients');
    assert.equal(served.db.stats().max, 10, 'the listening connection is not one of the pool');
  } finally {
    for (const c of clients) c.destroy();
  }
});

test('a NOTIFY inside a transaction that rolls back is never delivered; the next committed one is', { skip, timeout: 60_000 }, async () => {
  const client = await open(`${served.url}/events`);
  try {
    await deliveredTo(served, [client], 'id: 10\n', 10);
    const after = rest(client);
    assert.equal(await post(`${served.url}/orders/rolled-back`, { seq: 11 }), 500, 'the division by zero rolls the transaction back');
    assert.equal(await post(`${served.url}/orders`, { seq: 12 }), 202);
    await eventually(after.text, (t) => t.includes('id: 12\n'), 10_000);
    // Notifications of one session are delivered in commit order: had 11 been sent, it would be here.
    assert.equal(after.text(), 'id: 12\ndata: {"seq":12}\n\n');
  } finally {
    client.destroy();
  }
});

test('the listening connection killed (pg_terminate_backend): every stream ends (sse: event: gap), one warning per channel; a client that comes back receives what comes next', {
  skip,
  timeout: 60_000,
}, async () => {
  const clients: IncomingMessage[] = [];
  try {
    for (let i = 0; i < 2; i++) clients.push(await open(`${served.url}/events`));
    const ndjson = await open(`${served.url}/events.ndjson`);
    clients.push(ndjson);
    await deliveredTo(served, clients.slice(0, 2), 'id: 20\n', 20);
    await readUntil(ndjson, '{"seq":20}\n', 10_000);
    const sseRest = clients.slice(0, 2).map(rest);
    const ndjsonRest = rest(ndjson);

    const [pid, ...others] = await listenerPids(served.db);
    assert.equal(others.length, 0);
    assert.equal(served.db.listenerProcessId(), pid, 'the handle names the backend the test found');
    const { rows } = await served.db.query<{ killed: boolean }>({ text: 'SELECT pg_terminate_backend($1) AS killed', values: [pid] });
    assert.equal(rows[0]!.killed, true);

    assert.deepEqual(await Promise.all(sseRest.map((r) => r.ended)), ['end', 'end'], 'each SSE response ends, so EventSource reconnects');
    for (const r of sseRest) assert.equal(r.text(), 'event: gap\ndata: {"reason":"subscription lost"}\n\n');
    assert.equal(await ndjsonRest.ended, 'cut', 'an ndjson transfer is cut short, never a complete response');

    const lost = served.warnings.filter((w) => w.message.startsWith('postgres LISTEN lost'));
    assert.equal(lost.length, 1, 'one warning for the channel, not one per client');
    assert.equal(lost[0]!.fields.channel, 'orders');
    assert.equal(lost[0]!.fields.listeners, 1, 'one listener: the fan-out of every client');
    await eventually(
      () => served.log.requests().filter((l) => (l.stream as { ended?: string } | undefined)?.ended === 'source lost').length,
      (n) => n === 3,
      5000,
    );
    for (const line of served.log.requests().filter((l) => (l.stream as { ended?: string } | undefined)?.ended === 'source lost')) {
      assert.equal(line.level, 30, 'a lost source is not a failure of the request');
    }

    // The client reconnects: a new listening connection, which hears what is notified from then on.
    const again = await open(`${served.url}/events`);
    clients.push(again);
    assert.equal(again.statusCode, 200);
    const body = (await deliveredTo(served, [again], 'id: 21\n', 21))[0]!;
    assert.match(body, /id: 21\ndata: \{"seq":21\}\n\n/);
    const pids = await listenerPids(served.db);
    assert.equal(pids.length, 1, 'one listening connection again');
    assert.notEqual(pids[0], pid, 'a new backend');
  } finally {
    for (const c of clients) c.destroy();
  }
});

test('a channel name PostgreSQL would cut to another channel is refused with a 500 problem, nothing listened to', { skip, timeout: 30_000 }, async () => {
  const res = await fetchAll(`${served.url}/rooms/${'x'.repeat(60)}`);
  assert.equal(res.status, 500);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  assert.doesNotMatch(res.body, /63|channel/, 'the reason is logged, not shown');
  const line = served.log.requests().find((l) => String(l.url).startsWith('/rooms/xxxx'));
  assert.match(JSON.stringify(line), /at most 63/);
});

test('a channel is listened to once, while it has clients: UNLISTEN when its last client leaves, not before', { skip, timeout: 60_000 }, async () => {
  /** The last statement of the listening connection's backend. */
  const lastStatement = async (): Promise<string | undefined> =>
    (await served.db.query<{ query: string }>("SELECT query FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'svc-listen'"))
      .rows[0]?.query;
  const first = await open(`${served.url}/rooms/kitchen`);
  const second = await open(`${served.url}/rooms/kitchen`);
  try {
    assert.equal(await post(`${served.url}/rooms/kitchen/say`, { text: 'both hear this' }), 202);
    await Promise.all([readUntil(first, 'both hear this'), readUntil(second, 'both hear this')]);
    assert.equal(await lastStatement(), 'LISTEN "room_kitchen"', 'one LISTEN for both clients');
    first.destroy();
    assert.equal(await post(`${served.url}/rooms/kitchen/say`, { text: 'still here' }), 202);
    await readUntil(second, 'still here');
    assert.equal(await lastStatement(), 'LISTEN "room_kitchen"', 'one client left: still listening');
    second.destroy();
    assert.equal(await eventually(lastStatement, (q) => q === 'UNLISTEN "room_kitchen"', 5000), 'UNLISTEN "room_kitchen"');
  } finally {
    first.destroy();
    second.destroy();
  }
});
