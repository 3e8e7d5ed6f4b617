/**
 * A byte chunk handed over by its source (an upstream body's) is freed once written, not when the
 * garbage collector next runs (src/stream/free-bytes.ts); anything else is left alone.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { freeBytes } from '../../src/stream/free-bytes.js';
import { createEncoding, Pump } from '../../src/stream/index.js';

const MiB = 1024 * 1024;

test('freeBytes: a chunk that is its whole ArrayBuffer is emptied and its memory given back at once', () => {
  const chunk = Buffer.alloc(32 * MiB, 7);
  const before = process.memoryUsage().arrayBuffers;
  freeBytes(chunk);
  assert.equal(chunk.byteLength, 0);
  assert.equal(chunk.buffer.byteLength, 0);
  assert.ok(before - process.memoryUsage().arrayBuffers >= 31 * MiB, 'the memory was not given back');
  // Freed twice, or empty: nothing happens, nothing throws.
  freeBytes(chunk);
  freeBytes(new Uint8Array(0));
});

test('freeBytes: a view into a larger buffer, or a small pooled Buffer, is left as it is', () => {
  const whole = Buffer.alloc(1024, 1);
  const view = whole.subarray(0, 512);
  freeBytes(view);
  assert.equal(view.byteLength, 512);
  assert.equal(whole.byteLength, 1024);
  const pooled = Buffer.from('shares its ArrayBuffer with other small Buffers');
  freeBytes(pooled);
  assert.equal(pooled.toString(), 'shares its ArrayBuffer with other small Buffers');
});

/** A socket-like sink: it copies what it is given, and calls back once it has. */
function copyingSink(): { out: Writable; received: () => Buffer } {
  const parts: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      parts.push(Buffer.from(chunk));
      setImmediate(callback);
    },
  });
  return { out, received: () => Buffer.concat(parts) };
}

function chunks(n: number): Buffer[] {
  return Array.from({ length: n }, (_, i) => Buffer.alloc(64 * 1024, i + 1));
}

async function pumpAll(source: AsyncIterable<Buffer>, out: Writable): Promise<void> {
  const pump = new Pump({
    source,
    live: false,
    encoding: createEncoding({ format: 'raw', contentType: 'application/octet-stream' }),
    out,
    problemOf: () => ({ type: 'about:blank', title: 'failed', status: 502 }),
    abort: () => out.destroy(),
  });
  const result = await pump.run();
  assert.equal(result.end, 'complete');
  await new Promise<void>((resolve) => (out.writableFinished ? resolve() : out.once('finish', resolve)));
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

test('the pump frees each chunk of a source that hands its items over, after its write, and the bytes arrive whole', async () => {
  const items = chunks(40);
  const expected = sha256(Buffer.concat(items));
  const source = {
    handsOverItems: true,
    async *[Symbol.asyncIterator]() {
      yield* items;
    },
  };
  const sink = copyingSink();
  await pumpAll(source, sink.out);
  assert.equal(sha256(sink.received()), expected);
  assert.deepEqual(
    items.map((c) => c.byteLength),
    items.map(() => 0),
  );
});

test("the pump leaves a source's chunks alone unless it hands them over", async () => {
  const items = chunks(5);
  const source = {
    async *[Symbol.asyncIterator]() {
      yield* items;
    },
  };
  const sink = copyingSink();
  await pumpAll(source, sink.out);
  assert.deepEqual(
    items.map((c) => c.byteLength),
    items.map(() => 64 * 1024),
  );
  assert.equal(items[4]![0], 5);
});
