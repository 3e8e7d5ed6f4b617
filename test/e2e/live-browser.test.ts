/**
 * examples/live in a real browser: headless Chromium (Debian's `chromium`, driven with
 * puppeteer-core) opens the page served by the built `svc` binary, and its EventSource receives the
 * messages published through POST /events, from the test and through the page's own form; the
 * connection stays open across server heartbeats (a copy of the example with heartbeat = "1s"); and
 * after the server process is restarted on the same port the browser reconnects by itself, `retry`
 * (1000 ms) apart, and receives what is published to the new process. Every request the page makes
 * goes to 127.0.0.1 (other hosts do not even resolve in this browser).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import puppeteer, { type Page } from 'puppeteer-core';
import { ensureBuilt } from './build.js';
import { client, copyOfExample, kill, readUntil, serve, stop, type Served } from './live-helpers.js';

/** The `retry` the example sends; Chromium's own reconnection delay is 3000 ms. */
const RETRY_MS = 1000;

function chromiumPath(): string | undefined {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

interface Message {
  seq: number;
  author: string;
  text: string;
  sent_at: string;
}

/**
 * What the page has seen (its `window.liveFeed`). Read with string expressions: a function handed
 * to page.evaluate is sent as its source text, which tsx's transform may have changed.
 */
interface Seen {
  readyState: number;
  opens: number;
  errors: number;
  received: { id: string; message: Message }[];
  state: string;
  items: string[];
  posted: string;
}

const SEEN = `({
  readyState: window.liveFeed.source.readyState,
  opens: window.liveFeed.opens,
  errors: window.liveFeed.errors,
  received: window.liveFeed.received,
  state: document.getElementById('state').textContent,
  items: Array.from(document.querySelectorAll('#events li'), (li) => li.textContent),
  posted: document.getElementById('posted').textContent,
})`;

const seen = (page: Page): Promise<Seen> => page.evaluate(SEEN) as Promise<Seen>;

/** Waits until the page's state satisfies `condition` (a JavaScript expression on `window.liveFeed`). */
async function waitInPage(page: Page, condition: string, timeout = 5000): Promise<void> {
  try {
    await page.waitForFunction(condition, { timeout, polling: 50 });
  } catch (error) {
    throw new Error(`the page never had ${condition} within ${timeout} ms; it had ${JSON.stringify(await seen(page))}`, { cause: error });
  }
}

const chromium = chromiumPath();

test('examples/live in headless Chromium: live events, heartbeats, a server restart', { timeout: 60_000 }, async (t) => {
  if (chromium === undefined) {
    t.skip('chromium is not installed (scripts/test.sh installs the Debian package when it can)');
    return;
  }
  ensureBuilt();
  const copy = await copyOfExample({ 'events.hcl': [['      retry  = "1s"\n', '      retry  = "1s"\n      heartbeat = "1s"\n']] });
  const http = client();
  const servers: Served[] = [];
  t.after(async () => {
    for (const served of servers) kill(served);
    await http.destroy();
    await copy.remove();
  });
  servers.push(await serve(copy.dir));
  const first = servers[0]!;

  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1'],
  });
  t.after(() => browser.close());
  const page = await browser.newPage();
  const requests: { method: string; url: string; at: number }[] = [];
  const failures: { url: string; at: number; error: string }[] = [];
  page.on('request', (request) => requests.push({ method: request.method(), url: request.url(), at: Date.now() }));
  page.on('requestfailed', (request) => failures.push({ url: request.url(), at: Date.now(), error: request.failure()?.errorText ?? '' }));
  /** The EventSource's requests: its first and every reconnection attempt. */
  const feedRequests = () => requests.filter((r) => r.method === 'GET' && new URL(r.url).pathname === '/events');

  await page.goto(`${first.url}/`, { waitUntil: 'load', timeout: 10_000 });
  await waitInPage(page, "window.liveFeed.opens === 1 && document.getElementById('state').textContent === 'open'");

  await t.test('a message POSTed by someone else appears at once, its seq as the event id', async () => {
    const accepted = await http.post(first.url, { author: 'linus', text: 'Is this thing on?' });
    assert.equal(accepted.status, 202);
    const row = (await accepted.json()) as Message;
    await waitInPage(page, 'window.liveFeed.received.length === 1');
    const now = await seen(page);
    assert.deepEqual(now.received, [{ id: String(row.seq), message: row }]);
    assert.deepEqual(now.items, [`#${row.seq}linusIs this thing on?`]);
  });

  await t.test("a message sent with the page's form reaches the page through the feed", async () => {
    await page.type('#post [name=text]', 'Hello from the page');
    await page.click('#post button');
    await waitInPage(page, 'window.liveFeed.received.length === 2');
    const now = await seen(page);
    const { id, message } = now.received[1]!;
    assert.equal(message.author, 'guest');
    assert.equal(message.text, 'Hello from the page');
    assert.equal(id, String(message.seq));
    assert.equal(now.items[0], `#${message.seq}guestHello from the page`, 'the newest first');
    await waitInPage(page, `document.getElementById('posted').textContent === 'Posted as #${message.seq}'`);
    assert.equal(await page.$eval('#post [name=text]', (input) => (input as unknown as { value: string }).value), '', 'the text box is emptied');
  });

  await t.test('the connection stays open across heartbeats', async () => {
    // The server does send them every second to this copy: a second reader sees one within 1.5 s.
    const aborted = new AbortController();
    const raw = await http.fetch(`${first.url}/events`, { signal: aborted.signal });
    const heartbeat = readUntil(raw.body!.getReader(), (text) => text.includes(': heartbeat\n\n'), 1500);
    try {
      await Promise.all([heartbeat, sleep(2500)]);
    } finally {
      aborted.abort();
    }
    const now = await seen(page);
    assert.equal(now.readyState, 1, 'OPEN');
    assert.equal(now.opens, 1, 'never reconnected');
    assert.equal(now.errors, 0, 'no error event');
    assert.equal(now.state, 'open');
    assert.equal(feedRequests().length, 1, 'one /events request so far');
  });

  await t.test('the server restarts on the same port: the page reconnects `retry` ms apart and receives the new process', async () => {
    await page.evaluate("window.errorTimes = []; window.liveFeed.source.addEventListener('error', () => window.errorTimes.push(Date.now()))");
    const feedsBefore = feedRequests().length;
    const exited = stop(first);
    // The shutdown ends the stream politely; the browser sees the end and will reconnect.
    await waitInPage(page, 'window.liveFeed.errors === 1 && window.liveFeed.source.readyState === 0');
    assert.equal((await seen(page)).state, 'reconnecting');
    const [droppedAt] = (await page.evaluate('window.errorTimes')) as number[];

    // The old process no longer listens once its stream has ended; its exit is awaited below.
    servers.push(await serve(copy.dir, first.port));
    const second = servers[1]!;
    await waitInPage(page, "window.liveFeed.opens === 2 && document.getElementById('state').textContent === 'open'", 5000);

    // Each attempt while nothing listened failed at once; the next came `retry` later, never 3 s.
    const attempts = feedRequests()
      .slice(feedsBefore)
      .map((r) => r.at);
    assert.ok(attempts.length >= 2, `at least one failed attempt while the server was down (a start takes seconds); got ${attempts.length}`);
    const gaps = [attempts[0]! - droppedAt!, ...attempts.slice(1).map((at, i) => at - attempts[i]!)];
    const described = `reconnection attempts ${JSON.stringify(gaps)} ms apart, expected about ${RETRY_MS}`;
    // An attempt seen late (the browser's request event lags while a busy machine starts svc) makes
    // its gap longer and the next one shorter by as much (seen in CI: 1594 then 565): so each gap is
    // bounded above (never the default 3 s), and their mean and every two in a row from below too.
    assert.ok(
      gaps.every((gap) => gap < RETRY_MS + 1000),
      described,
    );
    assert.ok(Math.abs(gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length - RETRY_MS) <= 200, described);
    for (let i = 1; i < gaps.length; i++) assert.ok(gaps[i - 1]! + gaps[i]! >= 2 * RETRY_MS - 400, described);
    const failedFeeds = failures.filter((f) => new URL(f.url).pathname === '/events');
    assert.equal(failedFeeds.length, attempts.length - 1, 'every attempt but the last failed');
    assert.ok(
      failedFeeds.every((f) => f.error === 'net::ERR_CONNECTION_REFUSED'),
      JSON.stringify(failedFeeds),
    );

    const accepted = await http.post(second.url, { author: 'ada', text: 'Back again' });
    assert.equal(accepted.status, 202);
    const row = (await accepted.json()) as Message;
    await waitInPage(page, 'window.liveFeed.received.length === 3');
    assert.deepEqual((await seen(page)).received[2], { id: String(row.seq), message: row });

    const { code, signal } = await exited;
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, 'the first process shut down cleanly');
  });

  await t.test('every request the page made went to the server on 127.0.0.1', () => {
    assert.ok(requests.length >= 4, JSON.stringify(requests));
    const elsewhere = requests.filter((r) => new URL(r.url).host !== `127.0.0.1:${first.port}`);
    assert.deepEqual(elsewhere, []);
    const unexpected = failures.filter((f) => new URL(f.url).pathname !== '/events');
    assert.deepEqual(unexpected, []);
  });
});
