/**
 * A slow subscriber is bounded in bytes, not only in messages (issue 35, item 1), on both stores:
 * a client that reads nothing while large messages are published is cut off once what svc holds for
 * it (its kept messages and the response's unsent bytes) would pass the stream's `max_backlog`, with
 * the reason on a warning line, long before the 1,000-message cap; what svc held for it is measured
 * at every delivery and never passes the bound by more than one message. Another client of the same
 * channel keeps receiving.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect, type Socket } from 'node:net';
import { problem } from '../../src/problem/index.js';
import { createEncoding, Pump, type PumpResult } from '../../src/stream/index.js';
import type { LiveChannelSource } from '../../src/steps/live-source.js';
import { serveManifest } from '../http/helpers.js';
import { listenLocal, open, until } from '../http/stream-helpers.js';
import { STORES, eventually, unique } from './helpers.js';
import { sourceOf, streamHarness } from './stream-harness.js';

/** 64 KiB of text per message: 300 of them (under the 1,000-message cap) are 19 MiB. */
const MESSAGE = JSON.stringify({ text: 'x'.repeat(64 * 1024) });
const MESSAGE_BYTES = Buffer.byteLength(MESSAGE);
const MAX_BACKLOG = 256 * 1024;
const MAX_MESSAGES = 300;

/** A TCP connection whose client end never reads: the server end is what svc would write to. */
async function unreadSocket(): Promise<{ server: Socket; close(): void }> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<Socket>((resolve) => listener.once('connection', resolve));
  const port = (listener.address() as { port: number }).port;
  const client = connect(port, '127.0.0.1');
  client.pause();
  const server = await accepted;
  return {
    server,
    close() {
      client.destroy();
      server.destroy();
      listener.close();
    },
  };
}

for (const store of STORES) {
  test(`${store.name}: a client that reads nothing: svc holds at most max_backlog plus one message, then cuts it off`, { skip: store.skip }, async () => {
    const channel = unique('bytes');
    const h = await streamHarness(`
      connection "redis" "cache" {
        url = "${store.url}"
      }
      endpoint "GET /feed" {
        pipeline {
          redis "feed" {
            connection = connection.redis.cache
            command    = "SUBSCRIBE"
            channel    = "${channel}"
          }
          stream "sse" {
            source = steps.feed.stream
          }
        }
      }
    `);
    const socket = await unreadSocket();
    try {
      const outcome = await h.stream();
      const source = sourceOf<LiveChannelSource>(outcome);
      const out = socket.server;
      // What svc holds for this client, measured after every delivery: the kept messages and the
      // socket's unsent bytes (the kernel's buffers are not svc's memory).
      let maxHeld = 0;
      let deliveries = 0;
      const deliver = source.deliver.bind(source);
      source.deliver = (message: unknown, bytes?: number) => {
        deliver(message, bytes);
        deliveries++;
        maxHeld = Math.max(maxHeld, source.bufferedBytes + out.writableLength);
      };
      const pump = new Pump({
        source,
        live: true,
        encoding: createEncoding({ format: 'sse', contentType: 'text/event-stream', maxBacklogBytes: MAX_BACKLOG }),
        out,
        problemOf: () => problem(500),
        abort: () => out.destroy(),
      });
      let ended: PumpResult | undefined;
      void pump.run().then((r) => (ended = r));
      const handle = h.connectors.handle('redis', 'cache');
      let published = 0;
      while (ended === undefined && published < MAX_MESSAGES) {
        await handle.publish(channel, MESSAGE);
        published++;
        // Each message is heard before the next is sent: the measure sees every delivery.
        await eventually(
          () => deliveries + (ended === undefined ? 0 : Number.POSITIVE_INFINITY),
          (n) => n >= published,
        );
      }
      await until(() => ended !== undefined);
      assert.equal(ended!.why, 'client too slow');
      assert.match(String((ended!.error as Error).message), new RegExp(`max_backlog of ${MAX_BACKLOG}`));
      assert.ok(published < MAX_MESSAGES, `cut off after ${published} messages of ${MESSAGE_BYTES} bytes, under the message cap`);
      // A frame is the message plus its "data: " and line ends.
      assert.ok(maxHeld <= MAX_BACKLOG + MESSAGE_BYTES + 64, `svc held at most ${maxHeld} bytes for the client (bound ${MAX_BACKLOG})`);
      assert.ok(maxHeld > 0, 'the client did fall behind');
      // Cut off: nothing is kept for it any more.
      assert.equal(source.released, true);
      assert.equal(source.bufferedBytes, 0);
      assert.equal(out.destroyed, true);
      outcome.dispose('error', ended!.error);
    } finally {
      socket.close();
      await h.close();
    }
  });

  test(`${store.name}: HTTP: a paused SSE client is cut off at max_backlog, warned of; another gets every message`, { skip: store.skip }, async () => {
    const channel = unique('bytes-http');
    const served = await serveManifest(`
      connection "redis" "bus" {
        url = "${store.url}"
      }
      endpoint "GET /events" {
        pipeline {
          redis "feed" {
            connection = connection.redis.bus
            command    = "SUBSCRIBE"
            channel    = "${channel}"
          }
          stream "sse" {
            source      = steps.feed.stream
            max_backlog = "256KiB"
          }
        }
      }
    `);
    const url = await listenLocal(served.app);
    const handle = served.connectors.handle('redis', 'bus');
    const slow = await open(`${url}/events`);
    const fast = await open(`${url}/events`);
    try {
      slow.pause();
      let fastFrames = 0;
      let tail = '';
      fast.on('data', (chunk: Buffer) => {
        const text = tail + chunk.toString('latin1');
        fastFrames += text.split('\n\n').length - 1;
        tail = text.slice(text.lastIndexOf('\n\n') + 2);
      });
      await eventually(
        () => handle.publish(channel, '"warm-up"'),
        (n) => Number(n) >= 1,
      );
      await until(() => fastFrames >= 1);
      const cut = (): Record<string, unknown> | undefined => served.log.requests().find((l) => l.cancelled === 'client too slow');
      let published = 0;
      while (cut() === undefined && published < MAX_MESSAGES) {
        await handle.publish(channel, MESSAGE);
        published++;
        // At the fast client's pace, so that only the paused one falls behind.
        await until(() => fastFrames >= published + 1, 10_000);
      }
      const line = cut();
      assert.ok(line, `the paused client was cut off within ${MAX_MESSAGES} messages of ${MESSAGE_BYTES} bytes`);
      assert.equal(line.level, 40, 'a warning');
      assert.equal((line.stream as { ended: string }).ended, 'client too slow');
      assert.match(String(line.reason), /redis "feed": the client was cut off: its backlog would reach \d+ bytes, over the stream's max_backlog of 262144/);
      assert.equal(served.log.requests().filter((l) => l.cancelled === 'client too slow').length, 1, 'one line for the one client');
      await new Promise<void>((resolve) => {
        if (slow.destroyed || slow.readableEnded) resolve();
        slow.on('close', resolve);
        slow.on('error', () => resolve());
        slow.resume();
      });
      // The other client goes on.
      await handle.publish(channel, '"after"');
      await until(() => fastFrames >= published + 2);
    } finally {
      slow.destroy();
      fast.destroy();
      await served.close();
    }
  });
}
