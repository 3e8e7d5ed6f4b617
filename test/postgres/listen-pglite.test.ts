/**
 * LISTEN/NOTIFY on PGlite (issue 30, item 3): pglite-socket hands a notification only to the socket
 * whose query sent it, so svc listens through the pool's one client (src/connectors/postgres/
 * embedded-listener.ts). The same service as test/postgres/listen.test.ts: SSE clients receive what
 * another endpoint notifies, text stays text, a NOTIFY in a transaction that rolls back is never
 * delivered, and a channel is left when its last client leaves.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { open, readUntil } from '../http/stream-helpers.js';
import { closeTargets, eventually, TARGETS } from './helpers.js';
import { deliveredTo, post, rest, type Served, serve } from './listen-helpers.js';

after(closeTargets);

const pglite = TARGETS.find((t) => t.name === 'pglite')!;
let served: Served;

before(async () => {
  served = await serve(await pglite.fresh());
});

after(async () => {
  await served?.close();
});

test('on PGlite, SSE clients receive what another endpoint notifies; text stays text', { timeout: 60_000 }, async () => {
  const clients: IncomingMessage[] = [];
  try {
    for (let i = 0; i < 3; i++) clients.push(await open(`${served.url}/events`));
    const room = await open(`${served.url}/rooms/lobby`);
    clients.push(room);
    for (const body of await deliveredTo(served, clients.slice(0, 3), 'id: 1\n', 1)) assert.match(body, /id: 1\ndata: \{"seq":1\}\n\n/);
    assert.equal(await post(`${served.url}/rooms/lobby/say`, { text: 'hello, lobby' }), 202);
    assert.match(await readUntil(room, 'hello, lobby'), /^data: hello, lobby\n\n$/);
  } finally {
    for (const c of clients) c.destroy();
  }
});

test('on PGlite, a NOTIFY inside a transaction that rolls back is never delivered', { timeout: 60_000 }, async () => {
  const client = await open(`${served.url}/events`);
  try {
    await deliveredTo(served, [client], 'id: 10\n', 10);
    const later = rest(client);
    assert.equal(await post(`${served.url}/orders/rolled-back`, { seq: 11 }), 500);
    assert.equal(await post(`${served.url}/orders`, { seq: 12 }), 202);
    await eventually(later.text, (t) => t.includes('id: 12\n'), 10_000);
    assert.equal(later.text(), 'id: 12\ndata: {"seq":12}\n\n');
  } finally {
    client.destroy();
  }
});

test('on PGlite, the channel is left with its last client: the session listens to nothing', { timeout: 60_000 }, async () => {
  const channels = async (): Promise<string[]> => (await served.db.query<{ c: string }>('SELECT pg_listening_channels() AS c')).rows.map((r) => r.c);
  const client = await open(`${served.url}/rooms/kitchen`);
  assert.equal(await post(`${served.url}/rooms/kitchen/say`, { text: 'hi' }), 202);
  await readUntil(client, 'hi');
  // PGlite is one session: the pool's own query sees the LISTENs.
  assert.ok((await channels()).includes('room_kitchen'));
  client.destroy();
  assert.deepEqual(await eventually(channels, (c) => !c.includes('room_kitchen'), 5000), []);
});

test('on PGlite, a pool client replaced (its DISCARD ALL ends the LISTENs) ends the streams with event: gap; a new client listens again', {
  timeout: 60_000,
}, async () => {
  const client = await open(`${served.url}/events`);
  const clients = [client];
  try {
    await deliveredTo(served, [client], 'id: 20\n', 20);
    const later = rest(client);
    // Cut short by its time-out mid-query: the pool client is destroyed, and the next query's is new.
    const slow = await fetch(`${served.url}/slow`);
    await slow.arrayBuffer();
    assert.equal(slow.status, 504);
    assert.equal(await post(`${served.url}/orders`, { seq: 21 }), 202);
    assert.equal(await later.ended, 'end');
    assert.equal(later.text(), 'event: gap\ndata: {"reason":"subscription lost"}\n\n');
    assert.equal(served.warnings.filter((w) => w.message.startsWith('postgres LISTEN lost')).length, 1);

    const again = await open(`${served.url}/events`);
    clients.push(again);
    assert.match((await deliveredTo(served, [again], 'id: 22\n', 22))[0]!, /id: 22\ndata: \{"seq":22\}\n\n/);
  } finally {
    for (const c of clients) c.destroy();
  }
});
