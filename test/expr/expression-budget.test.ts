/**
 * Issue 15, class 4: request-time expressions have an output budget. The fixture
 * (fixtures/budget/api.hcl) holds the reproductions: before, a 26 kB body made `/nested-templates`
 * build 80 million characters, `/padded?width=999999999` a gigabyte of spaces (or a RangeError after
 * a long stall), `/cubed` run 64 million loop steps, `/repeated` a 40 MB response from 400 references
 * to one body, `/encoded` the same as one string. Now each is a fast 500 naming the step, the cause
 * in the log, and ordinary requests are served as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveManifest, type ServedService } from '../http/helpers.js';
import { sourceDir } from '../paths.js';

const FIXTURE = join(sourceDir(import.meta.url), 'fixtures', 'budget', 'api.hcl');
/**
 * CPU time, not wall time: on a loaded machine the wall clock of a request counts the time other
 * processes had the CPU (a 141 ms refusal took 2.9 s), its CPU time does not. Unbounded, these
 * burned seconds to minutes of CPU, or ran out of memory.
 */
const FAST_CPU_MS = 1500;

/** CPU time this process spent (every thread, user and system) while `work` ran, in ms. */
async function cpuMsOf<T>(work: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const before = process.cpuUsage();
  const result = await work();
  const spent = process.cpuUsage(before);
  return { result, cpuMs: (spent.user + spent.system) / 1000 };
}

const many = (n: number, v: unknown): unknown[] => Array.from({ length: n }, () => v);
const PAD = 'p'.repeat(100_000);

async function serve(t: { after: (f: () => Promise<void>) => void }): Promise<ServedService> {
  const service = await serveManifest(readFileSync(FIXTURE, 'utf8'));
  t.after(() => service.close());
  return service;
}

const REPRODUCTIONS: { name: string; method: 'GET' | 'POST'; url: string; payload?: object; cause: RegExp }[] = [
  {
    name: 'nested %{for} over request data',
    method: 'POST',
    url: '/nested-templates',
    payload: { items: many(2000, 'xxxxxxxxxx') },
    cause: /characters of text/,
  },
  { name: 'a format() width from the query', method: 'GET', url: '/padded?width=999999999', cause: /characters of text/ },
  { name: 'nested for expressions that keep nothing', method: 'POST', url: '/cubed', payload: { items: many(400, 1), pad: '' }, cause: /list or object items/ },
  {
    name: 'one body referenced once per element',
    method: 'POST',
    url: '/repeated',
    payload: { items: many(400, 1), pad: PAD },
    cause: /response body is longer/,
  },
  { name: 'json_encode of those references', method: 'POST', url: '/encoded', payload: { items: many(400, 1), pad: PAD }, cause: /characters of text/ },
];

for (const r of REPRODUCTIONS) {
  test(`${r.name}: a fast 500 naming the step, the cause in the log`, async (t) => {
    const service = await serve(t);
    // inject serves the request in this process, so its CPU time is the expression's work.
    const { result: res, cpuMs } = await cpuMsOf(() => service.app.inject({ method: r.method, url: r.url, ...(r.payload ? { payload: r.payload } : {}) }));
    assert.ok(cpuMs < FAST_CPU_MS, `took ${cpuMs} ms of CPU`);
    assert.equal(res.statusCode, 500, res.body.slice(0, 200));
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    const body = res.json() as Record<string, unknown>;
    assert.equal(body.step, 'respond#1');
    assert.ok(res.body.length < 500, 'the problem says nothing of the cause');
    const line = service.log.requests().at(-1)!;
    assert.equal(line.status, 500);
    assert.equal(line.step, 'respond#1');
    assert.match(String((line.err as { message?: string }).message), r.cause);
  });
}

test('ordinary requests are served as before, also right after a refused one', async (t) => {
  const service = await serve(t);
  await service.app.inject({ method: 'GET', url: '/padded?width=999999999' });
  const res = await service.app.inject({ method: 'POST', url: '/ordinary', payload: { name: 'Ann', items: [1, 2, 3] } });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { greeting: 'hello Ann', doubled: [2, 4, 6], listed: '1, 2, 3', padded: '       3' });
  // Large but within bounds: 4 million characters built by one expression are fine.
  const wide = await service.app.inject({ method: 'GET', url: '/padded?width=4000000' });
  assert.equal(wide.statusCode, 200);
  assert.equal((wide.json() as { text: string }).text.length, 4_000_000);
});

test('the budget is per request: two expressions that each fit do not fit together', async (t) => {
  const service = await serve(t);
  const small = await service.app.inject({ method: 'GET', url: '/padded-twice?width=1000' });
  assert.equal(small.statusCode, 200);
  const res = await service.app.inject({ method: 'GET', url: '/padded-twice?width=4000000' });
  assert.equal(res.statusCode, 500);
  assert.equal((res.json() as { step?: string }).step, 'respond#1');
  // The next request has a budget of its own.
  const again = await service.app.inject({ method: 'GET', url: '/padded?width=4000000' });
  assert.equal(again.statusCode, 200);
});
