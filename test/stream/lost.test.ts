/**
 * A live source that loses its upstream (LiveChannelSource.lose, as a dropped Redis subscription
 * does) ends the stream in a way its client cannot take for a normal end: SSE writes the messages
 * received before the loss, then `event: gap`, then ends the response; ndjson, csv and raw cut the
 * transfer short (the edge's `abort`). Whether the pump was pulling, writing pushed messages, or
 * waiting for a full socket to drain when the loss came.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { SourceLostError } from '../../graph/index.js';
import { LiveChannelSource } from '../../src/steps/live-source.js';
import { createEncoding, Pump, type PumpResult, type StreamFormat } from '../../src/stream/index.js';

const GAP = 'event: gap\ndata: {"reason":"subscription lost"}\n\n';

/** A sink that keeps what it was given; `blocked` keeps its buffer "full" until `unblock()`. */
function sink(blocked = false): { out: Writable; text: () => string; ended: () => boolean; unblock(): void } {
  let text = '';
  let ended = false;
  let pending: (() => void) | undefined;
  const out = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString();
      if (!blocked) callback();
      else pending = callback;
    },
    final(callback) {
      ended = true;
      callback();
    },
  });
  return {
    out,
    text: () => text,
    ended: () => ended,
    unblock() {
      blocked = false;
      pending?.();
    },
  };
}

function run(format: StreamFormat, src: LiveChannelSource, out: Writable): { done: Promise<PumpResult>; aborted: () => boolean } {
  let aborted = false;
  const pump = new Pump({
    source: src,
    live: true,
    encoding: createEncoding({ format, contentType: 'text/plain' }),
    out,
    problemOf: () => ({ type: 'about:blank', title: 'failed', status: 500 }),
    abort: () => {
      aborted = true;
    },
  });
  return { done: pump.run(), aborted: () => aborted };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('sse: the messages before the loss, then event: gap, then the end of the response', async () => {
  const src = new LiveChannelSource('redis "feed"', () => {});
  const s = sink();
  const { done, aborted } = run('sse', src, s.out);
  src.deliver({ n: 1 });
  src.deliver({ n: 2 });
  await tick();
  src.lose('the subscription to Redis was lost');
  const result = await done;
  assert.equal(result.why, 'source lost');
  assert.equal(result.end, 'error');
  assert.ok(result.error instanceof SourceLostError);
  assert.equal(s.text(), `data: {"n":1}\n\ndata: {"n":2}\n\n${GAP}`);
  await tick();
  assert.equal(s.ended(), true);
  assert.equal(aborted(), false);
  assert.equal(src.released, true);
});

for (const format of ['ndjson', 'csv', 'raw'] as const) {
  test(`${format}: a lost source cuts the transfer short (abort), never a complete response`, async () => {
    const src = new LiveChannelSource('redis "feed"', () => {});
    const s = sink();
    const { done, aborted } = run(format, src, s.out);
    src.deliver(format === 'raw' ? 'bytes' : { n: 1 });
    await tick();
    src.lose('the subscription to Redis was lost');
    const result = await done;
    assert.equal(result.why, 'source lost');
    assert.equal(aborted(), true);
    assert.equal(s.ended(), false, 'the response is not ended as complete');
  });
}

test('a loss while the pump waits for a full socket: messages kept before the loss are written first, then the gap', async () => {
  const left: LiveChannelSource[] = [];
  const src = new LiveChannelSource('redis "feed"', (s) => left.push(s));
  const s = sink(true);
  const { done } = run('sse', src, s.out);
  // The first message fills the socket; the next ones are kept by the source.
  for (let n = 1; n <= 3; n++) src.deliver({ n });
  await tick();
  assert.equal(src.buffered, 2);
  src.lose('lost');
  assert.deepEqual(left, [src], 'the channel is left at once');
  // The kept messages are still handed out: the socket stays "full", so the pump writes one per drain.
  let result: PumpResult | undefined;
  void done.then((r) => (result = r));
  for (let drains = 0; result === undefined && drains < 10; drains++) {
    await tick();
    s.out.emit('drain');
  }
  await done;
  assert.ok(result);
  assert.equal(result.why, 'source lost');
  assert.equal(result.items, 3);
  // What the pump wrote reaches the client once its socket drains.
  s.unblock();
  await tick();
  assert.equal(s.text(), `data: {"n":1}\n\ndata: {"n":2}\n\ndata: {"n":3}\n\n${GAP}`);
});

test('a message after the loss is ignored; the loss is told once', async () => {
  let leaves = 0;
  const src = new LiveChannelSource('redis "feed"', () => leaves++);
  const s = sink();
  const { done } = run('sse', src, s.out);
  src.lose('lost');
  src.lose('lost again');
  src.deliver({ n: 1 });
  await done;
  assert.equal(leaves, 1);
  assert.equal(s.text(), GAP);
});
