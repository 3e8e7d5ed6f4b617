/**
 * End to end: the built `svc` binary serving examples/live itself (memory: pub/sub, in-memory PGlite,
 * so the checkout is not written to) as a process; every endpoint over real HTTP: the page, the
 * exports byte for byte against the seed rows, the SSE feed read with a streaming fetch until the
 * first event, POST /events and its validation; then SIGTERM ends an open feed politely and exits 0.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ensureBuilt } from './build.js';
import { client, kill, readUntil, SEED_CSV, SEED_NDJSON, serve, stop, type Served } from './live-helpers.js';

let svc: Served;
const http = client();

before(async () => {
  ensureBuilt();
  svc = await serve('examples/live');
});

after(async () => {
  kill(svc);
  await http.destroy();
});

test('GET / is the page: HTML that opens an EventSource on /events and has a form that posts', async () => {
  const r = await http.fetch(`${svc.url}/`);
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
  const html = await r.text();
  assert.ok(html.startsWith('<!doctype html>\n<html lang="en">\n'), 'the heredoc (<<-EOT) loses its common indentation');
  assert.ok(html.includes("new EventSource('/events')"));
  assert.ok(html.includes('<form id="post">'));
});

test('GET /export.ndjson and /export.csv: the seed rows, byte for byte, from a streamed sql cursor', async () => {
  const ndjson = await http.fetch(`${svc.url}/export.ndjson`);
  assert.equal(ndjson.status, 200);
  assert.equal(ndjson.headers.get('content-type'), 'application/x-ndjson');
  assert.equal(await ndjson.text(), SEED_NDJSON);

  const csv = await http.fetch(`${svc.url}/export.csv`);
  assert.equal(csv.status, 200);
  assert.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
  assert.equal(csv.headers.get('content-disposition'), 'attachment; filename="messages.csv"');
  assert.equal(await csv.text(), SEED_CSV);
});

test('GET /events: retry at once, then each posted message as an event whose id is its seq', async () => {
  const aborted = new AbortController();
  const feed = await http.fetch(`${svc.url}/events`, { signal: aborted.signal });
  try {
    assert.equal(feed.status, 200);
    assert.equal(feed.headers.get('content-type'), 'text/event-stream');
    assert.equal(feed.headers.get('cache-control'), 'no-cache');
    const reader = feed.body!.getReader();
    // The head and the retry field go out before any message: the subscription is in place.
    assert.equal(await readUntil(reader, (text) => text.includes('\n\n')), 'retry: 1000\n\n');

    const accepted = await http.post(svc.url, { author: 'linus', text: 'Is this thing on?' });
    assert.equal(accepted.status, 202);
    const row = (await accepted.json()) as { seq: number; author: string; text: string; sent_at: string };
    assert.equal(row.seq, 4, 'after the three seed rows');
    assert.equal(row.author, 'linus');
    assert.equal(row.text, 'Is this thing on?');
    assert.match(row.sent_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const event = await readUntil(reader, (text) => text.endsWith('\n\n'));
    assert.equal(event, `id: 4\nevent: posted\ndata: ${JSON.stringify(row)}\n\n`);
  } finally {
    aborted.abort();
  }
});

test('POST /events validates its body (422 naming each field) and keeps each accepted message in the log', async () => {
  const invalid = await http.post(svc.url, { text: 'x'.repeat(281) });
  assert.equal(invalid.status, 422);
  assert.match(invalid.headers.get('content-type')!, /^application\/problem\+json/);
  const problem = (await invalid.json()) as { invalid_params: { name: string; reason: string }[] };
  assert.deepEqual(problem.invalid_params.map((p) => `${p.name}: ${p.reason}`).sort(), ['author: is required', 'text: length must be at most 280 characters']);

  const lines = (await (await http.fetch(`${svc.url}/export.ndjson`)).text()).split('\n').filter(Boolean);
  assert.deepEqual(
    lines.map((l) => (JSON.parse(l) as { author: string }).author),
    ['ada', 'grace', 'alan', 'linus'],
    'the seed rows and the message accepted before; nothing of the refused one',
  );
});

test('SIGTERM with a feed open: the feed ends with a last comment, the process exits 0', async () => {
  // A pool of its own for the feed: the test's other connections are closed first (see client()).
  const feedClient = client();
  try {
    const feed = await feedClient.fetch(`${svc.url}/events`);
    const reader = feed.body!.getReader();
    await readUntil(reader, (text) => text.includes('retry: 1000\n\n'));
    await http.close();
    const tail = readUntil(reader, (text) => text.endsWith(': server shutting down\n\n')).catch((error: unknown) => error);
    const { code, signal } = await stop(svc);
    assert.equal(signal, null);
    assert.equal(code, 0);
    const seen = await tail;
    assert.equal(typeof seen, 'string', String(seen));
    assert.ok(svc.lines().some((l) => l.msg === 'stopped'));
  } finally {
    await feedClient.destroy();
  }
});
