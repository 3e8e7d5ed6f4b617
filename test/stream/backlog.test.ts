/**
 * The byte bound of a live source's backlog (SourceTraits.limitBacklog, LiveChannelSource): kept
 * messages count by their published size and stop counting once pulled; what the consumer holds
 * (`held`) counts with them; past the bound the consumer is cut off, even with a pull waiting (it
 * fails rather than ending as if the stream were complete); a message larger than the bound still
 * goes to a consumer that holds nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SourceOverflowError } from '../../graph/index.js';
import { LiveChannelSource } from '../../src/steps/live-source.js';

const sourceOf = (maxBytes: number, held: () => number = () => 0): LiveChannelSource => {
  const src = new LiveChannelSource('redis "feed"', () => {});
  src.limitBacklog(maxBytes, held);
  return src;
};

test('kept messages count by their size until pulled', async () => {
  const src = sourceOf(100);
  src.deliver('a', 10);
  src.deliver('b', 20);
  src.deliver('c', 30);
  assert.equal(src.bufferedBytes, 60);
  assert.deepEqual(await src.next(), { done: false, value: 'a' });
  assert.equal(src.bufferedBytes, 50);
  assert.equal(src.released, false);
});

test('past the bound, counting what the consumer holds, the consumer is cut off and its messages dropped', async () => {
  let held = 0;
  const src = sourceOf(100, () => held);
  src.deliver('a', 40);
  held = 50;
  // 40 kept + 50 held + 20 new > 100.
  src.deliver('b', 20);
  assert.equal(src.released, true);
  assert.equal(src.bufferedBytes, 0);
  await assert.rejects(
    src.next(),
    (e: unknown) => e instanceof SourceOverflowError && /backlog would reach 110 bytes, over the stream's max_backlog of 100/.test(e.message),
  );
});

test('a pull waiting while the socket holds the excess fails; it does not end as done', async () => {
  const src = sourceOf(100, () => 90);
  const pull = src.next();
  src.deliver('big', 20);
  await assert.rejects(pull, SourceOverflowError);
  assert.equal(src.released, true);
});

test('a message larger than the bound goes to a consumer that holds nothing', async () => {
  const src = sourceOf(100);
  src.deliver('huge', 500);
  assert.equal(src.released, false);
  assert.deepEqual(await src.next(), { done: false, value: 'huge' });
  // Holding it (kept, not pulled), the next one is past the bound.
  src.deliver('huge again', 500);
  src.deliver('one more', 1);
  assert.equal(src.released, true);
});
