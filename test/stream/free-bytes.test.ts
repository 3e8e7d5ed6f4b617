/**
 * The chunks of a source that hands them over (an upstream body's) have their buffer freed once
 * written, not when the garbage collector next runs (src/stream/free-bytes.ts): each buffer once the
 * first chunk of the next one has been written, never the first buffer (it may hold the response's
 * head) nor a small one (Buffer's shared pool). Anything else is left alone.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { freeBuffer } from '../../src/stream/free-bytes.js';
import { createEncoding, Pump } from '../../src/stream/index.js';

const MiB = 1024 * 1024;

test('freeBuffer: the memory is given back at once, and every view of the buffer reads as empty', () => {
  const chunk = Buffer.alloc(32 * MiB, 7);
  const view = chunk.subarray(10, 20);
  const before = process.memoryUsage().arrayBuffers;
  freeBuffer(chunk.buffer);
  assert.equal(chunk.byteLength, 0);
  assert.equal(view.byteLength, 0);
  assert.ok(before - process.memoryUsage().arrayBuffers >= 31 * MiB, 'the memory was not given back');
  // Freed twice: nothing happens, nothing throws.
  freeBuffer(chunk.buffer);
});

test("freeBuffer: a small Buffer's shared pool is left as it is", () => {
  const pooled = Buffer.from('shares its ArrayBuffer with other small Buffers');
  freeBuffer(pooled.buffer);
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

/** Buffers of 64 KiB, each cut into `pieces` chunks (as a chunked upstream body's socket reads are). */
function buffers(n: number, pieces: number): { buffers: Buffer[]; chunks: Buffer[] } {
  const whole = Array.from({ length: n }, (_, i) => Buffer.alloc(64 * 1024, i + 1));
  const size = whole[0]!.length / pieces;
  const chunks = whole.flatMap((b) => Array.from({ length: pieces }, (_, j) => b.subarray(j * size, (j + 1) * size)));
  return { buffers: whole, chunks };
}

for (const pieces of [1, 4]) {
  test(`the pump frees the buffers of a source that hands its chunks over, ${pieces} chunk(s) per buffer, and the bytes arrive whole`, async () => {
    const { buffers: whole, chunks } = buffers(10, pieces);
    const expected = sha256(Buffer.concat(whole));
    const source = {
      handsOverItems: true,
      async *[Symbol.asyncIterator]() {
        yield* chunks;
      },
    };
    const sink = copyingSink();
    await pumpAll(source, sink.out);
    assert.equal(sha256(sink.received()), expected);
    // The first buffer (it may hold a response's head) and the last (no chunk came after it) are kept.
    assert.deepEqual(
      whole.map((b) => b.byteLength),
      whole.map((_, i) => (i === 0 || i === whole.length - 1 ? 64 * 1024 : 0)),
    );
  });
}

test("the pump leaves a source's chunks alone unless it hands them over", async () => {
  const { buffers: whole, chunks } = buffers(5, 1);
  const source = {
    async *[Symbol.asyncIterator]() {
      yield* chunks;
    },
  };
  const sink = copyingSink();
  await pumpAll(source, sink.out);
  assert.deepEqual(
    whole.map((c) => c.byteLength),
    whole.map(() => 64 * 1024),
  );
  assert.equal(whole[3]![0], 4);
});
