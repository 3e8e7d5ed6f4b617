/**
 * Live items pushed (SourceTraits.push): a subscription's messages are written as they come, with no
 * pull (no promise) per message, while the client's socket takes them; once it is full the source
 * keeps them for pulls again, in order, and pushing resumes when it has been drained. A message that
 * cannot be encoded fails the stream as a pulled one does; the source's end wakes the pump.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import type { PushConsumer } from '../../graph/index.js';
import { LiveChannelSource } from '../../src/steps/live-source.js';
import { createEncoding, Pump, type PumpResult } from '../../src/stream/index.js';

/** A LiveChannelSource on its own, counting its pulls. */
function source(): { src: LiveChannelSource; pulls: () => number } {
  const src = new LiveChannelSource('redis "feed"', () => {});
  let pulls = 0;
  const next = src.next.bind(src);
  src.next = () => {
    pulls++;
    return next();
  };
  return { src, pulls: () => pulls };
}

/** A socket-like sink whose buffer is "full" (write returns false) until `drain()`, when `blocking`. */
function sink(): { out: Writable; lines: () => string[]; block(): void; release(): void } {
  let text = '';
  let full = false;
  const out = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString();
      if (!full) callback();
      else
        out.once('unblock', () => {
          callback();
        });
    },
  });
  return {
    out,
    lines: () => text.split('\n').filter((l) => l.startsWith('data: ')),
    block: () => {
      full = true;
    },
    release: () => {
      full = false;
      out.emit('unblock');
    },
  };
}

function pumpOf(src: LiveChannelSource, out: Writable): { pump: Pump; done: Promise<PumpResult> } {
  const pump = new Pump({
    source: src,
    live: true,
    encoding: createEncoding({ format: 'sse', contentType: 'text/event-stream' }),
    out,
    problemOf: () => ({ type: 'about:blank', title: 'failed', status: 500 }),
    abort: () => out.destroy(),
  });
  return { pump, done: pump.run() };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('LiveChannelSource.push: refused while something waits to be pulled; takes messages until take says no; its end is told', () => {
  const { src } = source();
  src.deliver(1);
  const taken: unknown[] = [];
  let ended = 0;
  let accept = true;
  const consumer: PushConsumer = {
    take: (m) => {
      taken.push(m);
      return accept;
    },
    end: () => ended++,
  };
  assert.equal(src.push(consumer), false, 'a kept message comes first');
  void src.next();
  assert.equal(src.push(consumer), true);
  src.deliver(2);
  accept = false;
  src.deliver(3);
  src.deliver(4);
  assert.deepEqual(taken, [2, 3]);
  assert.equal(src.buffered, 1, 'after take said no, messages are kept for pulls');
  void src.next();
  assert.equal(src.push(consumer), true);
  src.release();
  assert.equal(ended, 1);
  assert.equal(src.push(consumer), false, 'a released source pushes nothing');
});

test('the pump writes pushed messages without a pull each, and pulls what was kept while the socket was full, in order', async () => {
  const { src, pulls } = source();
  const s = sink();
  const { done } = pumpOf(src, s.out);
  await tick();
  const before = pulls();
  for (let i = 1; i <= 50; i++) src.deliver({ n: i });
  assert.equal(pulls(), before, 'no pull for a pushed message');
  assert.equal(s.lines().length, 50);
  s.block();
  for (let i = 51; i <= 60; i++) src.deliver({ n: i });
  assert.ok(src.buffered >= 8, `messages kept while the socket is full (${src.buffered})`);
  s.release();
  await tick();
  await tick();
  for (let i = 61; i <= 70; i++) src.deliver({ n: i });
  await tick();
  assert.deepEqual(
    s.lines(),
    Array.from({ length: 70 }, (_, i) => `data: {"n":${i + 1}}`),
  );
  src.release();
  const result = await done;
  assert.equal(result.end, 'complete');
  assert.equal(result.items, 70);
});

test('a pushed message that cannot be encoded fails the stream, as a pulled one does', async () => {
  const { src } = source();
  const s = sink();
  const { done } = pumpOf(src, s.out);
  await tick();
  src.deliver({ ok: true });
  src.deliver(() => 'a function has no JSON text');
  const result = await done;
  assert.equal(result.end, 'error');
  assert.equal(result.why, 'source failed');
  assert.equal(result.items, 1);
  assert.equal(src.released, true, 'the channel is left');
});

test('a client that leaves while messages are pushed ends the stream as cancelled, and the channel is left', async () => {
  const { src } = source();
  const s = sink();
  const { done } = pumpOf(src, s.out);
  await tick();
  src.deliver('one');
  s.out.destroy();
  const result = await done;
  assert.equal(result.end, 'cancel');
  assert.equal(result.why, 'client closed');
  assert.equal(src.released, true);
});
