/**
 * examples/live resumed in a real browser (issue 30): headless Chromium's EventSource is cut off by
 * the server process being killed (SIGKILL, no last words), messages are added to the log while no
 * server runs, a new process is started on the same port, and the page, reconnecting by itself with
 * the `Last-Event-ID` header, receives exactly the messages it missed, then the live ones: every
 * seq once, in order, and no `gap` event. The log is the real PostgreSQL (a database of the test's
 * own), the only thing that outlives the process; the channel is each process's own `memory:`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import puppeteer, { type Page } from 'puppeteer-core';
import { TARGETS } from '../connectors/helpers.js';
import { ensureBuilt } from './build.js';
import { client, example, kill, serve, type Served } from './live-helpers.js';

function chromiumPath(): string | undefined {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const chromium = chromiumPath();
const postgres = TARGETS.find((t) => t.name === 'postgres')!;

const RECEIVED = 'window.liveFeed.received.map((r) => Number(r.id))';

async function waitInPage(page: Page, condition: string, timeout = 15_000): Promise<void> {
  try {
    await page.waitForFunction(condition, { timeout, polling: 50 });
  } catch (error) {
    throw new Error(`the page never had ${condition} within ${timeout} ms; it had ids ${JSON.stringify(await page.evaluate(RECEIVED))}`, {
      cause: error,
    });
  }
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

test('examples/live in headless Chromium: killed, restarted, the page resumes from Last-Event-ID with no missing event', {
  skip: chromium === undefined ? 'chromium is not installed (scripts/test.sh installs the Debian package when it can)' : postgres.skip,
  timeout: 90_000,
}, async (t) => {
  ensureBuilt();
  const databaseUrl = await postgres.fresh();
  const env = { DATABASE_URL: databaseUrl };
  const http = client();
  const servers: Served[] = [];
  const db = new pg.Client({ connectionString: databaseUrl });
  t.after(async () => {
    for (const served of servers) kill(served);
    await http.destroy();
    await db.end().catch(() => {});
  });
  servers.push(await serve(example, 0, env));
  const first = servers[0]!;

  const browser = await puppeteer.launch({
    executablePath: chromium!,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1'],
  });
  t.after(() => browser.close());
  const page = await browser.newPage();
  const requests: { url: string }[] = [];
  page.on('request', (request) => requests.push({ url: request.url() }));
  await page.goto(`${first.url}/`, { waitUntil: 'load', timeout: 10_000 });
  await waitInPage(page, 'window.liveFeed.opens === 1');

  // The seed rows are 1 to 3: the page is sent what is posted from now on.
  for (let i = 0; i < 3; i++) assert.equal((await http.post(first.url, { author: 'ada', text: `before ${i}` })).status, 202);
  await waitInPage(page, 'window.liveFeed.received.length === 3');
  assert.deepEqual(await page.evaluate(RECEIVED), [4, 5, 6]);

  // Cut off: the process dies without ending its streams.
  first.child.kill('SIGKILL');
  await first.exited;
  await waitInPage(page, 'window.liveFeed.errors >= 1');

  // Published while no server runs: only the log has them.
  await db.connect();
  await db.query("INSERT INTO messages (author, text) SELECT 'grace', 'while away ' || g FROM generate_series(1, 50) g");

  servers.push(await serve(example, first.port, env));
  const second = servers[1]!;
  await waitInPage(page, 'window.liveFeed.opens === 2');
  await waitInPage(page, 'window.liveFeed.received.length === 53');
  for (let i = 0; i < 2; i++) assert.equal((await http.post(second.url, { author: 'ada', text: `after ${i}` })).status, 202);
  await waitInPage(page, 'window.liveFeed.received.length === 55');

  // 7 to 56 were never published: only the replay from the page's Last-Event-ID (6) could send them.
  assert.deepEqual(await page.evaluate(RECEIVED), range(4, 58), 'every message once, in order');
  assert.equal(await page.evaluate('window.liveFeed.gaps'), undefined, 'no gap: the log kept everything');
  const elsewhere = requests.filter((r) => new URL(r.url).host !== `127.0.0.1:${first.port}`);
  assert.deepEqual(elsewhere, []);
});
