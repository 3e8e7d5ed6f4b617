/**
 * LISTEN/NOTIFY through a database outage, on a PostgreSQL server of the test's own (stopped and
 * restarted; never the shared one): the server stopped ends every SSE stream with `event: gap`; while
 * it is down a client that comes back is answered 503 (the listening connection cannot be opened,
 * then the back-off holds the next attempt back) rather than left waiting; once it is up again a
 * client listens on a new connection and receives what is notified next.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { fetchAll, open } from '../http/stream-helpers.js';
import { closeTargets, eventually, NO_REAL_POSTGRES, ownPostgres, REAL_POSTGRES_URL } from './helpers.js';
import { deliveredTo, listenerPids, post, rest, serve } from './listen-helpers.js';

test('the server stopped: streams end with event: gap; 503 while it is down; after its restart a new client hears what comes next', {
  skip: REAL_POSTGRES_URL === undefined ? NO_REAL_POSTGRES : false,
  timeout: 120_000,
}, async () => {
  const own = await ownPostgres('svc-pg-listen-');
  const served = await serve(own.url);
  const clients: IncomingMessage[] = [];
  try {
    const first = await open(`${served.url}/events`);
    clients.push(first);
    await deliveredTo(served, [first], 'id: 1\n', 1);
    const after = rest(first);

    await own.halt();
    assert.equal(await after.ended, 'end');
    assert.equal(after.text(), 'event: gap\ndata: {"reason":"subscription lost"}\n\n');

    // Down: the open fails (503), and the back-off then refuses at once (503 too), never a hang.
    for (let i = 0; i < 2; i++) {
      const refused = await fetchAll(`${served.url}/events`);
      assert.equal(refused.status, 503);
      assert.match(refused.body, /dependency-unavailable/);
    }

    await own.restart();
    // The back-off is at most 5 s; the pool's broken clients are replaced on use.
    const status = await eventually(
      async () => {
        const res = await open(`${served.url}/events`);
        if (res.statusCode === 200) clients.push(res);
        else res.destroy();
        return res.statusCode;
      },
      (code) => code === 200,
      20_000,
    );
    assert.equal(status, 200);
    const again = clients.at(-1)!;
    await eventually(
      () => post(`${served.url}/orders`, { seq: 2 }).catch(() => 0),
      (code) => code === 202,
      20_000,
    );
    const body = await new Promise<string>((resolve) => {
      let text = '';
      again.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (text.includes('id: 2\n')) resolve(text);
      });
      again.resume();
    });
    assert.match(body, /id: 2\ndata: \{"seq":2\}\n\n/);
    assert.equal((await listenerPids(served.db)).length, 1);
  } finally {
    for (const c of clients) c.destroy();
    await served.close();
    await own.remove();
    await closeTargets();
  }
});
