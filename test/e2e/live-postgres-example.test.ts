/**
 * examples/live-postgres served by the built `svc` binary, on its default in-memory PGlite and on
 * the real PostgreSQL: a live feed with no Redis. Posted messages reach an SSE client through
 * NOTIFY (sent at commit), twenty posted at once arrive in seq order (the writers take turns), and a
 * client back with Last-Event-ID is sent what it missed from the table, then the live ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { get, type IncomingMessage } from 'node:http';
import { TARGETS } from '../connectors/helpers.js';
import { eventually } from '../postgres/helpers.js';
import { ensureBuilt } from './build.js';
import { client, kill, root, serve, stop } from './live-helpers.js';

const example = `${root}/examples/live-postgres`;

function feed(base: string, last?: number): Promise<{ res: IncomingMessage; ids: () => number[]; text: () => string }> {
  return new Promise((resolveFeed, reject) => {
    const headers: Record<string, string> = last === undefined ? {} : { 'last-event-id': String(last) };
    get(`${base}/events`, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      resolveFeed({ res, text: () => text, ids: () => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])) });
    }).on('error', reject);
  });
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

for (const target of TARGETS) {
  test(`examples/live-postgres on ${target.name}: NOTIFY feeds the SSE clients, in seq order, and a client comes back with what it missed`, {
    skip: target.skip,
    timeout: 90_000,
  }, async (t) => {
    ensureBuilt();
    const env: Record<string, string> = target.name === 'postgres' ? { DATABASE_URL: await target.fresh() } : {};
    const served = await serve(example, 0, env);
    const http = client();
    t.after(async () => {
      kill(served);
      await http.destroy();
    });
    const post = async (text: string): Promise<number> => {
      const answer = await http.post(served.url, { author: 'ada', text });
      assert.equal(answer.status, 202, await answer.clone().text());
      return ((await answer.json()) as { seq: number }).seq;
    };

    const first = await feed(served.url);
    assert.equal(first.res.headers['content-type'], 'text/event-stream');
    assert.equal(await post('one'), 1);
    assert.equal(await post('two'), 2);
    assert.deepEqual(await eventually(first.ids, (ids) => ids.length >= 2, 10_000), [1, 2]);
    assert.match(first.text(), /id: 1\nevent: posted\ndata: \{"seq":1,"author":"ada","text":"one","sent_at":"[^"]+"\}\n\n/);

    // Twenty at once: the writers take turns, so the events come in seq order.
    const seqs = await Promise.all(range(1, 20).map((i) => post(`burst ${i}`)));
    assert.deepEqual(
      [...seqs].sort((a, b) => a - b),
      range(3, 22),
    );
    assert.deepEqual(await eventually(first.ids, (ids) => ids.length >= 22, 10_000), range(1, 22));
    first.res.destroy();

    for (let i = 0; i < 5; i++) await post(`while away ${i}`);
    const back = await feed(served.url, 22);
    await eventually(back.ids, (ids) => ids.length >= 5, 10_000);
    await post('live again');
    assert.deepEqual(await eventually(back.ids, (ids) => ids.length >= 6, 10_000), range(23, 28));
    assert.ok(!back.text().includes('event: gap'));
    back.res.destroy();

    const { code } = await stop(served);
    assert.equal(code, 0);
  });
}
