/**
 * SUBSCRIBE's output `stream` at the handle level, on both stores (a SUBSCRIBE step is refused at
 * boot until stream steps run, so nothing serves it yet): an Observable of decoded messages, one
 * listener per subscriber of it, the channel released when the last one unsubscribes (also when it
 * unsubscribes before the SUBSCRIBE was answered), and a failed SUBSCRIBE as its error.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { filter, firstValueFrom, take, toArray } from 'rxjs';
import { ConnectorError } from '../../src/connectors/index.js';
import { channelMessages } from '../../src/steps/redis/source.js';
import { eventually, type OpenStore, openStore, sleep, STORES, unique } from './helpers.js';

for (const store of STORES) {
  describe(`SUBSCRIBE source on ${store.name}`, { skip: store.skip }, () => {
    let open: OpenStore;
    before(async () => {
      open = await openStore(store.url);
    });
    after(() => open?.close());
    const receivers = (channel: string) => open.handle.publish(channel, 'probe');

    test('messages arrive decoded as GET decodes values: JSON as values, other text as text', async () => {
      const channel = unique('feed');
      // The probes sent while waiting for the subscription to be live are heard too: left out.
      const messages = firstValueFrom(
        channelMessages(open.handle, channel).pipe(
          filter((m) => m !== 'probe'),
          take(4),
          toArray(),
        ),
      );
      await eventually(
        () => receivers(channel),
        (n) => n === 1,
      );
      for (const m of ['{"id":1,"tags":["a"]}', 'plain text', '42', '[true,null]']) await open.handle.publish(channel, m);
      assert.deepEqual(await messages, [{ id: 1, tags: ['a'] }, 'plain text', 42, [true, null]]);
    });

    test('each subscriber of the Observable is a listener; the channel is released with the last one', async () => {
      const channel = unique('shared');
      const source = channelMessages(open.handle, channel);
      const a: unknown[] = [];
      const b: unknown[] = [];
      const sa = source.subscribe((m) => a.push(m));
      const sb = source.subscribe((m) => b.push(m));
      await eventually(
        () => receivers(channel),
        (n) => n === 1,
      );
      await open.handle.publish(channel, '{"n":1}');
      await eventually(
        () => a.some((m) => (m as { n?: number }).n === 1),
        (yes) => yes,
      );
      sa.unsubscribe();
      assert.equal(await receivers(channel), 1, 'b still listens');
      sb.unsubscribe();
      assert.equal(
        await eventually(
          () => receivers(channel),
          (n) => n === 0,
        ),
        0,
      );
      assert.ok(b.some((m) => (m as { n?: number }).n === 1));
    });

    test('unsubscribed before the SUBSCRIBE was answered: the channel is left once it is', async () => {
      const channel = unique('hasty');
      const subscription = channelMessages(open.handle, channel).subscribe(() => {});
      subscription.unsubscribe();
      await sleep(50);
      assert.equal(await receivers(channel), 0);
    });
  });
}

test("a SUBSCRIBE on a closed connection is the Observable's error, as dependency-unavailable", async () => {
  const open = await openStore('memory:');
  await open.close();
  const error = await firstValueFrom(channelMessages(open.handle, 'x')).catch((e: unknown) => e);
  assert.ok(error instanceof ConnectorError);
  assert.equal(error.category, 'dependency-unavailable');
  assert.match(error.message, /connection "redis" "cache" is closed/);
});
