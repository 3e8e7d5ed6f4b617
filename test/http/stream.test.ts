/**
 * The HTTP edge of streams (src/http/stream-reply.ts and src/stream/pump.ts) over real sockets: when
 * the head goes out, backpressure, failures before and after the first byte, client departures,
 * heartbeats, shutdown, and the one disposal and log line of every stream.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { SourceOverflowError } from '../../graph/index.js';
import { shutdown } from '../../src/http/index.js';
import { endpoint, server, serveManifest } from './helpers.js';
import { buildServiceModel } from '../../src/steps/index.js';
import { fetchAll, listenLocal, open, readUntil, silentLiveSource, streamResult, until, type Disposal } from './stream-helpers.js';

const logger = { warn() {}, info() {}, error() {} } as never;

/**
 * An async source of `count` numbered items, `delayMs` apart (the first after `firstDelayMs`), that
 * records how many were pulled.
 */
function counted(count: number, delayMs = 0, firstDelayMs = delayMs): { source: AsyncIterable<{ n: number }>; pulled: () => number; returned: () => boolean } {
  let pulled = 0;
  let returned = false;
  async function* items(): AsyncGenerator<{ n: number }> {
    try {
      for (let n = 1; n <= count; n++) {
        const wait = n === 1 ? firstDelayMs : delayMs;
        if (wait > 0) await sleep(wait);
        pulled = n;
        yield { n };
      }
    } finally {
      returned = true;
    }
  }
  return { source: items(), pulled: () => pulled, returned: () => returned };
}

test('ndjson of an async source: byte-exact, one disposal (complete), one log line with items and bytes', async () => {
  let disposals: Disposal[] = [];
  const { app, log } = await server([
    endpoint('GET /feed', () => {
      const made = streamResult(counted(3).source);
      disposals = made.disposals;
      return made.result;
    }),
  ]);
  const url = await listenLocal(app);
  try {
    const got = await fetchAll(`${url}/feed`);
    assert.equal(got.status, 200);
    assert.equal(got.headers['content-type'], 'application/x-ndjson');
    assert.ok(got.headers['x-request-id']);
    assert.equal(got.body, '{"n":1}\n{"n":2}\n{"n":3}\n');
    assert.equal(got.complete, true);
    await until(() => log.requests().length === 1);
    assert.deepEqual(disposals, [{ end: 'complete' }]);
    const line = log.requests()[0]!;
    assert.equal(line.status, 200);
    assert.deepEqual(line.stream, { format: 'ndjson', items: 3, bytes: got.body.length, ended: 'complete' });
  } finally {
    await app.close();
  }
});

test('a slow client slows the source: items are pulled only as the socket drains', async () => {
  const big = 'x'.repeat(16 * 1024);
  let pulled = 0;
  let disposals: Disposal[] = [];
  async function* items(): AsyncGenerator<string> {
    for (let i = 0; i < 10_000; i++) {
      pulled++;
      yield big;
    }
  }
  const { app } = await server([
    endpoint('GET /big', () => {
      const made = streamResult(items(), { format: 'raw', contentType: 'application/octet-stream' });
      disposals = made.disposals;
      return made.result;
    }),
  ]);
  const url = await listenLocal(app);
  try {
    const res = await open(`${url}/big`);
    res.pause();
    // 10,000 items of 16 KiB is 160 MiB; a paused client lets only the socket buffers fill. They may
    // take a while to (a loaded machine): wait until the source has not been pulled for 200 ms
    // (within 5 s), then it must stay where it stopped.
    let whilePaused = -1;
    for (let waited = 0; pulled !== whilePaused && waited < 5_000; waited += 200) {
      whilePaused = pulled;
      await sleep(200);
    }
    assert.ok(whilePaused < 1000, `pulled ${whilePaused} items while the client read nothing`);
    await sleep(200);
    assert.equal(pulled, whilePaused, 'no more pulling while the client still reads nothing');
    let bytes = 0;
    res.on('data', (c: Buffer) => (bytes += c.length));
    res.resume();
    await new Promise((r) => res.on('end', r));
    assert.equal(bytes, 10_000 * big.length);
    await until(() => disposals.length === 1);
    assert.deepEqual(disposals, [{ end: 'complete' }]);
  } finally {
    await app.close();
  }
});

test('a client that leaves mid-stream: the source is told to stop and the stream disposed (cancel), logged', async () => {
  let made: ReturnType<typeof counted> | undefined;
  let disposals: Disposal[] = [];
  const { app, log } = await server([
    endpoint('GET /feed', () => {
      made = counted(1_000_000, 1);
      const r = streamResult(made.source);
      disposals = r.disposals;
      return r.result;
    }),
  ]);
  const url = await listenLocal(app);
  try {
    const res = await open(`${url}/feed`);
    await readUntil(res, '{"n":3}');
    res.destroy();
    await until(() => disposals.length === 1);
    assert.deepEqual(disposals, [{ end: 'cancel' }]);
    assert.equal(made!.returned(), true, 'the source was told to stop');
    assert.ok(made!.pulled() < 1000);
    await until(() => log.requests().length === 1);
    assert.equal((log.requests()[0]!.stream as { ended: string }).ended, 'client closed');
  } finally {
    await app.close();
  }
});

test('a source that fails before its first item is an ordinary problem answer with its category status', async () => {
  let disposals: Disposal[] = [];
  const boom = new Error('connection refused');
  const { app, log } = await server([
    endpoint('GET /feed', () => {
      const source: AsyncIterable<unknown> = {
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(boom) }),
      };
      const r = streamResult(source, { category: 'dependency-unavailable' });
      disposals = r.disposals;
      return r.result;
    }),
  ]);
  const url = await listenLocal(app);
  try {
    const got = await fetchAll(`${url}/feed`);
    assert.equal(got.status, 503);
    assert.match(String(got.headers['content-type']), /^application\/problem\+json/);
    const body = JSON.parse(got.body) as Record<string, unknown>;
    assert.equal(body.step, 'feed');
    assert.equal(body.instance, '/feed');
    assert.ok(!got.body.includes('connection refused'), 'the cause stays in the log');
    assert.deepEqual(disposals, [{ end: 'error', error: boom }]);
    await until(() => log.lines.some((l) => l.msg === 'request failed'));
  } finally {
    await app.close();
  }
});

test('a failure after the first byte ends the stream in its format: ndjson error line, sse error event, csv cut off', async () => {
  function failing(): AsyncIterable<unknown> {
    return (async function* () {
      yield { n: 1 };
      throw new Error('cursor failed');
    })();
  }
  const { app } = await server([
    endpoint('GET /ndjson', () => streamResult(failing()).result),
    endpoint('GET /sse', () => streamResult(failing(), { format: 'sse' }).result),
    endpoint('GET /csv', () => streamResult(failing(), { format: 'csv' }).result),
  ]);
  const url = await listenLocal(app);
  try {
    const nd = await fetchAll(`${url}/ndjson`);
    const lines = nd.body.trim().split('\n');
    assert.equal(lines[0], '{"n":1}');
    const last = JSON.parse(lines[1]!) as { error: { status: number; step: string; instance: string } };
    assert.equal(last.error.status, 500);
    assert.equal(last.error.step, 'feed');
    assert.equal(last.error.instance, '/ndjson');
    assert.equal(nd.complete, true);

    const sse = await fetchAll(`${url}/sse`);
    assert.match(sse.body, /data: \{"n":1\}\n\nevent: error\ndata: \{[^\n]*"status":500[^\n]*\}\n\n$/);

    const csv = await fetchAll(`${url}/csv`);
    assert.equal(csv.complete, false, 'a failed CSV export is a truncated transfer, never a silent success');
    assert.ok(csv.body.startsWith('n\r\n1\r\n'), JSON.stringify(csv.body));
  } finally {
    await app.close();
  }
});

test('the first item is bounded by the request time-out: 504 and the stream disposed; afterwards no time-out', async () => {
  let disposals: Disposal[] = [];
  const { app } = await server(
    [
      endpoint('GET /late', () => {
        const r = streamResult(counted(2, 300).source);
        disposals = r.disposals;
        return r.result;
      }),
      // The first item at once, the rest 150 ms apart: every one after the first comes after the time-out.
      endpoint('GET /long', () => streamResult(counted(3, 150, 0).source).result),
    ],
    { requestTimeoutMs: 100 },
  );
  const url = await listenLocal(app);
  try {
    const late = await fetchAll(`${url}/late`);
    assert.equal(late.status, 504);
    assert.deepEqual(disposals, [{ end: 'cancel' }]);
    // 300 ms in all, longer than the 100 ms time-out, but the first item is in time.
    const long = await fetchAll(`${url}/long`);
    assert.equal(long.status, 200);
    assert.equal(long.body, '{"n":1}\n{"n":2}\n{"n":3}\n');
  } finally {
    await app.close();
  }
});

test('a live source: head at once, a client that cannot keep up is cut off with a logged reason', async () => {
  const { source, fail } = silentLiveSource();
  let disposals: Disposal[] = [];
  const { app, log } = await server([
    endpoint('GET /live', () => {
      const r = streamResult(source, { live: true });
      disposals = r.disposals;
      return r.result;
    }),
  ]);
  const url = await listenLocal(app);
  try {
    const res = await open(`${url}/live`);
    assert.equal(res.statusCode, 200, 'the head went out before any item');
    fail(new SourceOverflowError('more than 1000 messages behind'));
    await new Promise((r) => res.on('close', r));
    await until(() => disposals.length === 1);
    assert.equal(disposals[0]!.end, 'error');
    await until(() => log.requests().length === 1);
    assert.equal(log.requests()[0]!.cancelled, 'client too slow');
  } finally {
    await app.close();
  }
});

test('sse over a manifest: retry once, event, id from the item, heartbeats, Last-Event-ID readable, headers', async () => {
  const served = await serveManifest(`
    endpoint "GET /events" {
      request {
        headers {
          field "last-event-id" {
            type     = string
            required = false
          }
        }
      }
      pipeline {
        stream "sse" {
          source    = [{ seq = 7, resumed_after = ctx.request.headers.last-event-id }]
          event     = "tick"
          id        = item.seq
          retry     = "1500ms"
          heartbeat = "50ms"
          headers   = { "X-Feed" = "ticks" }
        }
      }
    }
  `);
  const url = await listenLocal(served.app);
  try {
    const got = await fetchAll(`${url}/events`, { 'last-event-id': '6' });
    assert.equal(got.status, 200);
    assert.equal(got.headers['content-type'], 'text/event-stream');
    assert.equal(got.headers['cache-control'], 'no-cache');
    assert.equal(got.headers['x-accel-buffering'], 'no');
    assert.equal(got.headers['x-feed'], 'ticks');
    assert.equal(got.body, 'retry: 1500\n\nid: 7\nevent: tick\ndata: {"seq":7,"resumed_after":"6"}\n\n');
  } finally {
    await served.close();
  }
});

test('sse heartbeats arrive every heartbeat period while a live source is silent; shutdown ends it politely', async () => {
  const { source } = silentLiveSource();
  let disposals: Disposal[] = [];
  const { app, log } = await server([
    endpoint('GET /quiet', () => {
      const r = streamResult(source, { format: 'sse', heartbeatMs: 30, live: true });
      disposals = r.disposals;
      return r.result;
    }),
  ]);
  const url = await listenLocal(app);
  const res = await open(`${url}/quiet`);
  const twice = await readUntil(res, ': heartbeat\n\n: heartbeat\n\n');
  assert.ok(twice.startsWith(': heartbeat\n\n'));
  const ended = new Promise<string>((resolve) => {
    let rest = '';
    res.on('data', (c: Buffer) => (rest += c.toString()));
    res.on('end', () => resolve(rest));
  });
  res.resume();
  await shutdown(app, { shutdownTimeoutMs: 2000, logger });
  const tail = await ended;
  assert.match(tail, /: server shutting down\n\n$/);
  assert.deepEqual(disposals, [{ end: 'cancel' }]);
  assert.equal((log.requests()[0]!.stream as { ended: string }).ended, 'server shutting down');
});

test('stream steps from a manifest: when = false falls through; a source that is not a list is a 500 naming the step', async () => {
  const served = await serveManifest(`
    endpoint "GET /maybe" {
      request {
        query {
          field "on" {
            type    = bool
            default = false
          }
        }
      }
      pipeline {
        stream "ndjson" {
          source = [1, 2]
          when   = ctx.request.query.on
        }
        respond {
          body = { streamed = false }
        }
      }
    }
    endpoint "GET /bad" {
      pipeline {
        stream "ndjson" {
          source = { not = "a list" }
        }
      }
    }
  `);
  const url = await listenLocal(served.app);
  try {
    assert.equal((await fetchAll(`${url}/maybe`)).body, '{"streamed":false}');
    assert.equal((await fetchAll(`${url}/maybe?on=true`)).body, '1\n2\n');
    const bad = await fetchAll(`${url}/bad`);
    assert.equal(bad.status, 500);
    assert.equal((JSON.parse(bad.body) as { step: string }).step, 'stream#1');
  } finally {
    await served.close();
  }
});

test('HEAD of a stream endpoint: the head a GET would send, nothing pulled, the stream disposed', async () => {
  let made: ReturnType<typeof counted> | undefined;
  let disposals: Disposal[] = [];
  const { app } = await server([
    endpoint('GET /feed', () => {
      made = counted(10);
      const r = streamResult(made.source, { format: 'sse', live: true });
      disposals = r.disposals;
      return r.result;
    }),
  ]);
  const url = await listenLocal(app);
  try {
    const res = await fetch(`${url}/feed`, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    assert.equal(made!.pulled(), 0);
    assert.deepEqual(disposals, [{ end: 'cancel' }]);
  } finally {
    await app.close();
  }
});

test('an sse stream names each event from its item (event = item.kind); event may read nothing but item', async () => {
  const served = await serveManifest(`
    endpoint "GET /events" {
      pipeline {
        stream "sse" {
          source = [{ kind = "opened", n = 1 }, { kind = "closed", n = 2 }, { n = 3 }]
          event  = item.kind
        }
      }
    }
  `);
  const url = await listenLocal(served.app);
  try {
    const got = await fetchAll(`${url}/events`);
    assert.equal(got.status, 200);
    assert.equal(got.body, 'event: opened\ndata: {"kind":"opened","n":1}\n\nevent: closed\ndata: {"kind":"closed","n":2}\n\ndata: {"n":3}\n\n');
  } finally {
    await served.close();
  }
  const built = buildServiceModel([
    {
      filename: 'api.hcl',
      source: 'endpoint "GET /e" {\n  pipeline {\n    stream "sse" {\n      source = [1]\n      event  = ctx.request.query.kind\n    }\n  }\n}\n',
    },
  ]);
  const unknown = built.diagnostics.find((d) => d.summary === 'Unknown variable');
  assert.equal(unknown?.subject?.start.line, 5, 'ctx is not in scope of a per-item expression');
});
