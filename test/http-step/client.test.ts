/**
 * The outbound client at the connector level (src/connectors/http through the connector set): its
 * lifecycle with the connections, keep-alive, its own time-out and cancellation, and the pullable
 * upstream body that `stream = true` will hand to a stream step: read only as fast as it is
 * consumed, destroyed (with its connection) when the consumer stops or never starts.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ConnectorError, createConnectors, type ConnectorSet } from '../../src/connectors/index.js';
import { upstream, within, type Upstream } from './helpers.js';

const GiB = 1024 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x62);

/** The last request of the endless routes, with what its response has written so far. */
interface Feed {
  readonly req: IncomingMessage;
  readonly socket: Socket;
  written: number;
}
const feeds: Feed[] = [];

/**
 * `/feed`: up to 1 GiB, generated one chunk at a time and only when the socket takes it; emits
 * `stall` on `up.events` each time a write has to wait for `drain`. `/hang`: never answers.
 */
function route(req: IncomingMessage, res: ServerResponse): void {
  if (req.url === '/ok') {
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
    return;
  }
  if (req.url === '/trickle') {
    // A few bytes every 20 ms, for as long as anyone listens.
    res.setHeader('content-type', 'text/plain');
    const timer = setInterval(() => res.write('tick\n'), 20);
    res.on('close', () => clearInterval(timer));
    up.events.emit('request', req);
    return;
  }
  if (req.url === '/hang') {
    up.events.emit('request', req);
    return;
  }
  const feed: Feed = { req, socket: req.socket, written: 0 };
  feeds.push(feed);
  res.setHeader('content-type', 'application/octet-stream');
  res.setHeader('content-length', String(GiB));
  const pump = (): void => {
    while (feed.written < GiB && !res.destroyed) {
      feed.written += CHUNK.length;
      if (!res.write(CHUNK)) {
        up.events.emit('stall', feed);
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

let up: Upstream;
let set: ConnectorSet;

before(async () => {
  up = await upstream(route);
  set = createConnectors({ connections: new Map() });
  await set.openAll();
});

after(async () => {
  await set?.closeAll();
  await up?.close();
});

describe('lifecycle', () => {
  test('before openAll and after closeAll a request is refused as unavailable, and nothing is sent', async () => {
    const fresh = createConnectors({ connections: new Map() });
    const client = fresh.outbound.forOrigin(up.url);
    const count = up.received.length;
    await assert.rejects(client.request({ method: 'GET', url: `${up.url}/ok` }), (e: unknown) => {
      assert.ok(e instanceof ConnectorError);
      assert.equal(e.category, 'dependency-unavailable');
      assert.match(e.message, /not open/);
      return true;
    });
    await fresh.openAll();
    assert.equal((await client.request({ method: 'GET', url: `${up.url}/ok` })).status, 200);
    await fresh.closeAll();
    await assert.rejects(fresh.outbound.any.request({ method: 'GET', url: `${up.url}/ok` }), /closed/);
    assert.equal(up.received.length, count + 1);
  });

  test('an origin known at boot keeps its connections alive between requests, until closeAll', async () => {
    const own = createConnectors({ connections: new Map() });
    const client = own.outbound.forOrigin(up.url);
    await own.openAll();
    const sockets = new Set<Socket>();
    const onConnection = (s: Socket): void => void sockets.add(s);
    up.events.on('connection', onConnection);
    try {
      for (let i = 0; i < 10; i++) assert.deepEqual(JSON.parse((await client.request({ method: 'GET', url: `${up.url}/ok` })).body.toString()), { ok: true });
    } finally {
      up.events.off('connection', onConnection);
    }
    // undici frees a connection a tick after its body ended, so a request sent at once after the
    // first may open a second one; from then on the two are reused.
    assert.ok(sockets.size <= 2, `${sockets.size} connections for ten requests`);
    const closed = Promise.all([...sockets].map((s) => within(s, 'close', 5_000, 'an idle upstream connection at closeAll')));
    await own.closeAll();
    await closed;
  });
});

describe('cancellation', () => {
  test('the exchange time-out: a ConnectorError of category timeout, and the upstream socket closed', async () => {
    const arrived = within<[IncomingMessage]>(up.events, 'request', 5_000, 'the upstream request');
    const pending = set.outbound.any.request({ method: 'GET', url: `${up.url}/hang`, timeoutMs: 100 });
    // Its handler attached at once: on a loaded machine the 100 ms may pass before the request is seen
    // arriving, and a rejection nobody handled yet fails the test run.
    const rejected = assert.rejects(
      pending,
      (e: unknown) => e instanceof ConnectorError && e.category === 'timeout' && /timed out after 100 ms/.test(e.message),
    );
    const [req] = await arrived;
    const closed = within(req.socket, 'close', 5_000, 'the upstream socket after the time-out');
    await rejected;
    await closed;
  });

  test("the caller's signal: cancelled, socket closed; an already aborted signal sends nothing", async () => {
    const controller = new AbortController();
    const arrived = within<[IncomingMessage]>(up.events, 'request', 5_000, 'the upstream request');
    const pending = set.outbound.any.request({ method: 'GET', url: `${up.url}/hang`, signal: controller.signal });
    const [req] = await arrived;
    const closed = within(req.socket, 'close', 1_000, 'the upstream socket after the abort');
    controller.abort(new Error('client gone'));
    await assert.rejects(pending, (e: unknown) => e instanceof ConnectorError && e.category === 'cancelled' && /client gone/.test(e.message));
    await closed;

    const count = up.received.length;
    await assert.rejects(set.outbound.any.request({ method: 'GET', url: `${up.url}/ok`, signal: AbortSignal.abort() }), { category: 'cancelled' });
    assert.equal(up.received.length, count);
  });
});

describe('the streamed body (stream = true)', () => {
  test('is read only as fast as it is consumed, and leaving the loop closes the upstream connection', async () => {
    const stalled = within<[Feed]>(up.events, 'stall', 5_000, 'the upstream waiting for the reader');
    const response = await set.outbound.any.stream({ method: 'GET', url: `${up.url}/feed` });
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-length'], String(GiB));
    // Nobody reads yet: the upstream has to stop and wait once the buffers on the way are full.
    const [feed] = await stalled;
    const atStall = feed.written;
    // What the socket buffers on both sides hold (several MiB each with loopback autotuning).
    assert.ok(atStall < 32 * 1024 * 1024, `the upstream could write ${atStall} bytes before it had to wait`);

    // Reading some moves it on by about what was read, not more. The close is listened to from now on,
    // so one during the reading is not missed; the second is from when the reader leaves, however long
    // a loaded machine takes to read 64 MiB (two matrix files at a time once took longer than that).
    let socketClosed = false;
    feed.socket.once('close', () => (socketClosed = true));
    let read = 0;
    for await (const chunk of response.body) {
      read += chunk.length;
      if (read >= 64 * 1024 * 1024) break;
    }
    if (!socketClosed) await within(feed.socket, 'close', 1_000, 'the upstream socket after the reader left');
    assert.equal(response.body.bytesRead, read);
    assert.ok(feed.written < read + 32 * 1024 * 1024, `wrote ${feed.written} for ${read} read`);
  });

  test('a body never read is destroyed by dispose(), its connection with it', async () => {
    const count = feeds.length;
    const response = await set.outbound.any.stream({ method: 'GET', url: `${up.url}/feed` });
    const feed = feeds[count]!;
    const closed = within(feed.socket, 'close', 1_000, 'the upstream socket of the unread body');
    response.body.dispose();
    await closed;
    // Disposed before reading: the loop ends at once, with nothing.
    let chunks = 0;
    for await (const _ of response.body) chunks++;
    assert.equal(chunks, 0);
  });

  test("the caller's signal ends a stream being read: a cancelled error, the connection closed", async () => {
    const count = feeds.length;
    const controller = new AbortController();
    const response = await set.outbound.any.stream({ method: 'GET', url: `${up.url}/feed`, signal: controller.signal });
    const feed = feeds[count]!;
    const closed = within(feed.socket, 'close', 1_000, 'the upstream socket after the abort');
    await assert.rejects(
      (async () => {
        for await (const _ of response.body) controller.abort(new Error('client gone'));
      })(),
      (e: unknown) => e instanceof ConnectorError && e.category === 'cancelled',
    );
    await closed;
  });

  test('a trickling body: the caller aborting while a read waits closes the upstream socket', async () => {
    const controller = new AbortController();
    const arrived = within<[IncomingMessage]>(up.events, 'request', 5_000, 'the upstream request');
    const response = await set.outbound.any.stream({ method: 'GET', url: `${up.url}/trickle`, signal: controller.signal });
    const [req] = await arrived;
    const closed = within(req.socket, 'close', 1_000, 'the trickling upstream socket after the abort');
    let chunks = 0;
    await assert.rejects(
      (async () => {
        for await (const _ of response.body) {
          // The third chunk: abort while the loop goes back to wait for the fourth.
          if (++chunks === 3) setTimeout(() => controller.abort(new Error('client gone')), 5);
        }
      })(),
      { category: 'cancelled' },
    );
    await closed;
  });

  test('1 GiB passes through whole with memory that stays flat', async () => {
    const response = await set.outbound.any.stream({ method: 'GET', url: `${up.url}/feed` });
    const start = process.memoryUsage().rss;
    let peak = start;
    let total = 0;
    let n = 0;
    for await (const chunk of response.body) {
      total += chunk.length;
      if (++n % 1024 === 0) peak = Math.max(peak, process.memoryUsage().rss);
    }
    assert.equal(total, GiB);
    assert.ok(peak - start < 100 * 1024 * 1024, `RSS grew by ${Math.round((peak - start) / 1024 / 1024)} MiB`);
  });
});
