/**
 * An upstream body is read chunk by chunk as it was pushed (src/connectors/http/chunks.ts): pieces
 * waiting together are not joined into a new Buffer (which would copy each socket read once more),
 * the reader takes them only as fast as it asks, and a failure or a close before the end is thrown
 * after the pieces that arrived.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { chunksOf } from '../../src/connectors/http/chunks.js';

test('pieces pushed together come out one by one, as the same Buffers, then the end', async () => {
  const read = Buffer.alloc(64 * 1024, 1);
  const pieces = [read.subarray(0, 1000), read.subarray(1009, 30_000), read.subarray(30_000)];
  const readable = new Readable({ read() {} });
  for (const piece of pieces) readable.push(piece);
  readable.push(null);
  const got: Buffer[] = [];
  for await (const chunk of chunksOf(readable)) got.push(chunk);
  assert.equal(got.length, 3);
  for (let i = 0; i < 3; i++) assert.equal(got[i]!.buffer, read.buffer, `piece ${i} is a view of the read, not a copy`);
  assert.deepEqual(
    got.map((c) => c.length),
    pieces.map((p) => p.length),
  );
});

test('nothing is read ahead of the reader: the stream keeps what it was not asked for', async () => {
  const readable = new Readable({ highWaterMark: 16, read() {} });
  for (let i = 0; i < 10; i++) readable.push(Buffer.from(`piece ${i};`));
  const chunks = chunksOf(readable);
  const first = await chunks.next();
  assert.equal(String(first.value), 'piece 0;');
  assert.equal(readable.readableLength, 9 * 'piece 0;'.length, 'the others wait in the stream');
  await chunks.return(undefined);
  readable.destroy();
});

test('a failure, or a close before the end, is thrown after the pieces that arrived', async () => {
  const failing = new Readable({ read() {} });
  failing.push(Buffer.from('a'));
  setImmediate(() => failing.destroy(new Error('reset')));
  const got: string[] = [];
  await assert.rejects(async () => {
    for await (const chunk of chunksOf(failing)) got.push(String(chunk));
  }, /reset/);
  assert.deepEqual(got, ['a']);
  const closed = new Readable({ read() {} });
  setImmediate(() => closed.destroy());
  await assert.rejects(async () => {
    for await (const _ of chunksOf(closed)) assert.fail('no chunk was pushed');
  }, /premature close/i);
});
