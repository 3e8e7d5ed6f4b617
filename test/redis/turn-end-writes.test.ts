/**
 * The Redis connection holds its writes to the end of the event loop's turn (src/io): the commands
 * of one turn wait in the socket and leave together, each still answered as its own; a reconnection's
 * new socket is held too.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { ServerConnection } from '../../src/connectors/redis/server/connection.js';
import { TurnEndWrites } from '../../src/io/index.js';
import { eventually, NO_REAL_REDIS, REAL_REDIS_URL, unique } from './helpers.js';

const skip = REAL_REDIS_URL === undefined ? NO_REAL_REDIS : false;

let connection: ServerConnection | undefined;
let admin: Redis | undefined;
before(async () => {
  if (skip) return;
  connection = new ServerConnection({
    url: REAL_REDIS_URL!,
    key: 'redis.cache',
    label: 'connection "redis" "cache"',
    name: 'svc',
    connectTimeoutMs: 5_000,
    logger: undefined,
    writes: new TurnEndWrites(),
  });
  await connection.ready(5_000);
  admin = new Redis(REAL_REDIS_URL!, { lazyConnect: true });
  await admin.connect();
});
after(async () => {
  await connection?.close();
  admin?.disconnect();
});

test('the commands of one turn wait in the socket until the turn ends, then are each answered', { skip }, async () => {
  const client = connection!.client;
  const keys = Array.from({ length: 20 }, () => unique('held'));
  const replies = Promise.all(keys.map((key) => connection!.send((c) => c.incr(key))));
  // All twenty are still the socket's: nothing went to the kernel within this turn.
  assert.ok(client.stream.writableLength >= keys.length * '*2\r\n$4\r\nINCR\r\n'.length, `${client.stream.writableLength} bytes waiting`);
  assert.deepEqual(
    (await replies).map(Number),
    keys.map(() => 1),
  );
  assert.equal(client.stream.writableLength, 0);
  await admin!.del(...keys);
});

test('after a reconnection the new socket is held too', { skip }, async () => {
  const client = connection!.client;
  const first = client.stream;
  const id = await connection!.send((c) => c.client('ID'));
  await admin!.client('KILL', 'ID', String(id));
  await eventually(
    () => client.stream !== first && connection!.stats().up,
    (reconnected) => reconnected,
    5_000,
  );
  const key = unique('held');
  const reply = connection!.send((c) => c.set(key, 'v'));
  assert.ok(client.stream.writableLength > 0, 'the command waits for the end of the turn');
  assert.equal(await reply, 'OK');
  await admin!.del(key);
});
