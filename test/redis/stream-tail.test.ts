/**
 * The stream tail's loop (src/connectors/redis/stream-tail.ts) over a reader the test drives: each
 * read is made from the id of the last entry handed over, a failed read is made again from the same
 * id, an error reply stops it with onFailure, and a reader closed under it (the store's close)
 * stops it without reads made in vain. No Redis needed: the reader is the whole of its world.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectorError } from '../../src/connectors/index.js';
import { StoreReplyError } from '../../src/connectors/redis/errors.js';
import { StreamTailLoop } from '../../src/connectors/redis/stream-tail.js';
import type { StreamEntry, StreamReader } from '../../src/connectors/redis/types.js';
import { eventually } from './helpers.js';

/** A reader whose reads wait for the test to answer them, one at a time. */
class ScriptedReader implements StreamReader {
  readonly reads: string[] = [];
  closed = false;
  #pending: { resolve: (entries: readonly StreamEntry[]) => void; reject: (error: unknown) => void } | undefined;

  read(after: string): Promise<readonly StreamEntry[]> {
    this.reads.push(after);
    return new Promise((resolve, reject) => {
      this.#pending = { resolve, reject };
    });
  }

  async answer(entries: readonly StreamEntry[] | Error): Promise<void> {
    await eventually(
      () => this.#pending,
      (p) => p !== undefined,
    );
    const pending = this.#pending!;
    this.#pending = undefined;
    if (entries instanceof Error) pending.reject(entries);
    else pending.resolve(entries);
  }

  close(): void {
    this.closed = true;
    this.#pending?.resolve([]);
  }
}

const entry = (id: string): StreamEntry => ({ id, fields: ['n', id] });

test('reads follow the last id handed over; a lost connection is read again from the same id; an error reply stops the tail', async () => {
  const reader = new ScriptedReader();
  const seen: string[] = [];
  const failures: Error[] = [];
  const tail = new StreamTailLoop(reader, '5-0', { onEntries: (e) => seen.push(...e.map((x) => x.id)), onFailure: (e) => failures.push(e) });
  await reader.answer([entry('5-1'), entry('6-0')]);
  await reader.answer([]);
  const lost = new ConnectorError('redis: Connection is closed.', { connection: 'redis.cache', category: 'dependency-unavailable' });
  await reader.answer(lost);
  await reader.answer([entry('7-0')]);
  await reader.answer(new StoreReplyError('WRONGTYPE Operation against a key holding the wrong kind of value'));
  await eventually(
    () => failures.length,
    (n) => n === 1,
  );
  assert.deepEqual(reader.reads, ['5-0', '6-0', '6-0', '6-0', '7-0']);
  assert.deepEqual(seen, ['5-1', '6-0', '7-0']);
  assert.equal(tail.lastId, '7-0');
  assert.match(failures[0]!.message, /^WRONGTYPE/);
  assert.ok(reader.closed, 'a stopped tail closes its reader');
});

test('a reader closed under the tail (the store closing) stops it: no read is made again', async () => {
  const reader = new ScriptedReader();
  const tail = new StreamTailLoop(reader, '0-0', { onEntries: () => {}, onFailure: () => assert.fail('not a failure') });
  await eventually(
    () => reader.reads.length,
    (n) => n === 1,
  );
  reader.close();
  // The close answers the read under way with no entries: a tail still looping reads again at once,
  // within the turn that settles it.
  await new Promise(setImmediate);
  await new Promise(setImmediate);
  assert.deepEqual(reader.reads, ['0-0']);
  tail.close();
});
