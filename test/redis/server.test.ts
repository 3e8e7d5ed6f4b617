/**
 * What only a real Redis can show: svc's connections as the server sees them. One connection for
 * commands and one shared subscriber connection, whatever the number of listeners and channels
 * (never one per SSE client), each channel subscribed once and unsubscribed with its last
 * listener, and the protocol pinned to RESP2.
 *
 * A database of its own (9) tells this test's connections apart from those of the test files
 * running beside it on the same server.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { eventually, NO_REAL_REDIS, type OpenStore, openStore, REAL_REDIS_URL, unique } from './helpers.js';

const skip = REAL_REDIS_URL === undefined ? NO_REAL_REDIS : false;
const DB = 9;

let open: OpenStore | undefined;
let admin: Redis | undefined;
before(async () => {
  if (skip) return;
  open = await openStore(`${REAL_REDIS_URL}/${DB}`);
  admin = new Redis(REAL_REDIS_URL!, { lazyConnect: true });
  await admin.connect();
});
after(async () => {
  await open?.close();
  admin?.disconnect();
});

/** svc's connections to database 9, by name, with the fields CLIENT LIST gives. */
async function ours(): Promise<Record<string, string>[]> {
  const list = (await admin!.client('LIST')) as string;
  return list
    .split('\n')
    .filter((line) => line.includes(` db=${DB} `) && / name=svc/.test(line))
    .map((line) => Object.fromEntries(line.split(' ').map((field) => field.split('=') as [string, string])));
}

async function numsub(channel: string): Promise<number> {
  const reply = (await admin!.pubsub('NUMSUB', channel)) as [string, number];
  return Number(reply[1]);
}

test('one command connection and one subscriber connection, whatever the listeners; RESP2', { skip }, async () => {
  const handle = open!.handle;
  await handle.get(unique());
  const before = await ours();
  assert.deepEqual(
    before.map((c) => [c.name, c.resp]),
    [['svc', '2']],
    'no subscriber connection until something subscribes',
  );

  const channels = Array.from({ length: 5 }, () => unique('ch'));
  const heard = new Map<string, number>();
  const subscriptions = await Promise.all(
    Array.from({ length: 50 }, (_, i) => handle.subscribe(channels[i % 5]!, (m) => heard.set(m, (heard.get(m) ?? 0) + 1))),
  );
  const connections = await ours();
  assert.deepEqual(connections.map((c) => c.name).sort(), ['svc', 'svc-subscriber']);
  assert.ok(connections.every((c) => c.resp === '2'));
  const subscriber = connections.find((c) => c.name === 'svc-subscriber')!;
  assert.equal(subscriber.sub, '5', 'each channel subscribed once');
  for (const channel of channels) assert.equal(await numsub(channel), 1);

  await handle.publish(channels[0]!, 'to ten');
  await eventually(
    () => heard.get('to ten') ?? 0,
    (n) => n === 10,
  );
  assert.equal(heard.get('to ten'), 10, 'one message from the server, handed to its ten listeners');

  // Nine of a channel's ten listeners leave: still subscribed. The tenth leaves: unsubscribed.
  const first = subscriptions.filter((_, i) => i % 5 === 0);
  for (const s of first.slice(0, 9)) s.unsubscribe();
  assert.equal(await numsub(channels[0]!), 1);
  first[9]!.unsubscribe();
  assert.equal(
    await eventually(
      () => numsub(channels[0]!),
      (n) => n === 0,
    ),
    0,
  );
  for (const s of subscriptions) s.unsubscribe();
  for (const channel of channels) {
    assert.equal(
      await eventually(
        () => numsub(channel),
        (n) => n === 0,
      ),
      0,
    );
  }
  assert.equal((await ours()).length, 2, 'the subscriber connection stays for the next listener');
});
