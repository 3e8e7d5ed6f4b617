/**
 * A resumed live feed under `svc serve --workers 2` (issue 30): examples/live-postgres on the real
 * PostgreSQL, each SSE connection taken by whichever worker the cluster module gives it. Clients
 * that leave and come back with Last-Event-ID, to any worker, receive what they missed, then the
 * live messages: the log and the LISTEN channel are the server's, shared by the workers.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { TARGETS } from '../connectors/helpers.js';
import { eventually } from '../postgres/helpers.js';
import { ROOT } from '../paths.js';
import { kill, serve, type Served } from './serve-helpers.js';

const postgres = TARGETS.find((t) => t.name === 'postgres')!;
const running: Served[] = [];
after(() => {
  for (const served of running) kill(served);
});

function feed(base: string, last?: number): Promise<{ res: IncomingMessage; ids: () => number[] }> {
  return new Promise((resolveFeed, reject) => {
    httpGet(`${base}/events`, { headers: last === undefined ? {} : { 'last-event-id': String(last) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      resolveFeed({ res, ids: () => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])) });
    }).on('error', reject);
  });
}

async function post(base: string, text: string): Promise<number> {
  const answer = await fetch(`${base}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ author: 'ada', text }),
  });
  assert.equal(answer.status, 202);
  return ((await answer.json()) as { seq: number }).seq;
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

test('--workers 2: clients that come back to any worker with Last-Event-ID get what they missed, then the live messages', {
  skip: postgres.skip,
  timeout: 90_000,
}, async () => {
  const served = await serve(`${ROOT}/examples/live-postgres`, ['--workers', '2'], { DATABASE_URL: await postgres.fresh() });
  running.push(served);
  const first = await Promise.all(range(1, 6).map(() => feed(served.url)));
  for (let i = 1; i <= 5; i++) assert.equal(await post(served.url, `before ${i}`), i);
  for (const f of first) assert.deepEqual(await eventually(f.ids, (ids) => ids.length >= 5, 15_000), range(1, 5));
  for (const f of first) f.res.destroy();

  for (let i = 0; i < 10; i++) await post(served.url, `while away ${i}`);
  const back = await Promise.all(range(1, 6).map(() => feed(served.url, 5)));
  for (const b of back) await eventually(b.ids, (ids) => ids.length >= 10, 15_000);
  await post(served.url, 'live 1');
  await post(served.url, 'live 2');
  for (const b of back) assert.deepEqual(await eventually(b.ids, (ids) => ids.length >= 12, 15_000), range(6, 17));
  for (const b of back) b.res.destroy();
  const pids = new Set([...served.stdout().matchAll(/"pid":(\d+)/g)].map((m) => m[1]));
  assert.ok(pids.size >= 2, `both workers served requests (pids in the log: ${[...pids].join(', ')})`);
});
