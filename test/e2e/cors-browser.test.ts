/**
 * examples/cors in a real browser: headless Chromium (Debian's `chromium`, driven with puppeteer-core)
 * opens the page served by one `svc` process and, from that origin, calls an API served by a second
 * process on another port (another origin): `fetch` with `credentials: 'include'` (the page's cookie
 * arrives), an `EventSource` with `withCredentials` that receives published events, and a JSON POST
 * that needs a preflight. Against a third process whose policy does not allow the page's origin, the
 * browser blocks all three: the fetch rejects with a TypeError, the EventSource is closed, the console
 * says why, and the preflight's refusal keeps the POST from ever being sent. Every request the page
 * makes goes to 127.0.0.1 (other hosts do not even resolve in this browser).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import puppeteer, { type Page } from 'puppeteer-core';
import { ensureBuilt } from './build.js';
import { client, kill, root, serve, type Served } from './live-helpers.js';

const example = join(root, 'examples/cors');

function chromiumPath(): string | undefined {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The page's `window.demo` (examples/cors/page.hcl). */
interface Demo {
  api: string;
  whoami: { origin: string; cookie: string } | null;
  fetchError: string | null;
  opens: number;
  errors: number;
  readyState: number;
  received: { text: string; at: number }[];
  posted: number | string | null;
}

const demo = (page: Page): Promise<Demo> => page.evaluate('window.demo') as Promise<Demo>;

async function waitInPage(page: Page, condition: string, timeout = 10_000): Promise<void> {
  try {
    await page.waitForFunction(condition, { timeout, polling: 50 });
  } catch (error) {
    throw new Error(`the page never had ${condition} within ${timeout} ms; it had ${JSON.stringify(await demo(page))}`, { cause: error });
  }
}

const chromium = chromiumPath();

test('examples/cors in headless Chromium: a page on one origin uses the API of another, and an origin not allowed is blocked', {
  timeout: 90_000,
}, async (t) => {
  if (chromium === undefined) {
    t.skip('chromium is not installed (scripts/test.sh installs the Debian package when it can)');
    return;
  }
  ensureBuilt();
  const http = client();
  const servers: Served[] = [];
  t.after(async () => {
    for (const served of servers) kill(served);
    await http.destroy();
  });
  // The same manifest three times: the page's origin, an API allowing it, an API allowing another.
  const pageServer = await serve(example);
  servers.push(pageServer);
  const [allowing, refusing] = await Promise.all([
    serve(example, 0, { PAGE_ORIGIN: pageServer.url }),
    serve(example, 0, { PAGE_ORIGIN: 'https://elsewhere.example' }),
  ]);
  servers.push(allowing, refusing);

  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1'],
  });
  t.after(() => browser.close());
  const requests: { method: string; url: string }[] = [];
  const failures: { url: string; error: string }[] = [];
  const consoleLines: string[] = [];
  async function open(api: string): Promise<Page> {
    const page = await browser.newPage();
    page.on('request', (request) => requests.push({ method: request.method(), url: request.url() }));
    page.on('requestfailed', (request) => failures.push({ url: request.url(), error: request.failure()?.errorText ?? '' }));
    page.on('console', (message) => consoleLines.push(message.text()));
    await page.goto(`${pageServer.url}/?api=${encodeURIComponent(api)}`, { waitUntil: 'load', timeout: 10_000 });
    return page;
  }
  const linesOf = (served: Served, method: string, path: string) => served.lines().filter((l) => l.method === method && String(l.url).split('?')[0] === path);
  /** The access lines of `method path` once there are `count` (lines are written in batches, up to 100 ms late). */
  async function logged(served: Served, method: string, path: string, count: number): Promise<Record<string, unknown>[]> {
    for (let i = 0; i < 100 && linesOf(served, method, path).length < count; i++) await sleep(50);
    return linesOf(served, method, path);
  }

  await t.test('the allowed origin: credentials sent, the feed open and receiving, a preflighted POST published', async () => {
    const page = await open(allowing.url);
    await waitInPage(page, 'window.demo.whoami !== null && window.demo.opens === 1');
    const first = await demo(page);
    assert.deepEqual(first.whoami, { origin: pageServer.url, cookie: 'visitor=ada' }, 'the API saw the page origin and its cookie');
    assert.equal(first.fetchError, null);

    // Published by someone else, through the API's POST (no browser involved).
    const accepted = await http.fetch(`${allowing.url}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'from afar' }),
    });
    assert.equal(accepted.status, 202);
    await waitInPage(page, 'window.demo.received.length === 1');
    assert.equal((await demo(page)).received[0]!.text, 'from afar');

    // Published by the page itself: a JSON POST, preflighted, then sent with credentials.
    await page.type('#post [name=text]', 'from the page');
    await page.click('#post button');
    await waitInPage(page, 'window.demo.received.length === 2 && window.demo.posted === 202');
    assert.equal((await demo(page)).received[1]!.text, 'from the page');
    const preflights = await logged(allowing, 'OPTIONS', '/events', 1);
    assert.equal(preflights.length, 1, 'one preflight (its answer is then kept for max_age)');
    assert.equal(preflights[0]!.status, 204);
    assert.deepEqual(
      (await logged(allowing, 'POST', '/events', 2)).map((l) => l.status),
      [202, 202],
    );
    const now = await demo(page);
    assert.equal(now.errors, 0, 'the feed never failed');
    assert.equal(now.readyState, 1, 'OPEN');
    await page.close();
  });

  await t.test('an origin the API does not allow: the fetch rejects, the EventSource closes, the POST never leaves', async () => {
    const page = await open(refusing.url);
    await waitInPage(page, 'window.demo.fetchError !== null && window.demo.readyState === 2');
    const blocked = await demo(page);
    assert.equal(blocked.fetchError, 'TypeError: Failed to fetch');
    assert.equal(blocked.whoami, null);
    assert.equal(blocked.opens, 0, 'the feed never opened');
    assert.ok(blocked.errors >= 1);
    // The browser says why, for each request it blocked.
    const said = consoleLines.filter((l) => l.includes(refusing.url) && l.includes('has been blocked by CORS policy'));
    assert.ok(
      said.some((l) => l.includes('/whoami') && l.includes("No 'Access-Control-Allow-Origin' header")),
      JSON.stringify(consoleLines),
    );
    assert.ok(
      said.some((l) => l.includes('/events')),
      JSON.stringify(consoleLines),
    );
    // The server answered both (it does not know the page cannot read them), without CORS headers.
    assert.equal((await logged(refusing, 'GET', '/whoami', 1))[0]?.status, 200);

    // The POST needs a preflight, which is refused: the POST itself is never sent.
    await page.type('#post [name=text]', 'should not arrive');
    await page.click('#post button');
    await waitInPage(page, "window.demo.posted === 'TypeError: Failed to fetch'");
    assert.deepEqual(
      (await logged(refusing, 'OPTIONS', '/events', 1)).map((l) => l.status),
      [403],
    );
    assert.deepEqual(linesOf(refusing, 'POST', '/events'), []);
    assert.ok(
      failures.some((f) => f.url.startsWith(refusing.url) && f.error === 'net::ERR_FAILED'),
      JSON.stringify(failures),
    );
    await page.close();
  });

  await t.test('every request the pages made went to 127.0.0.1', () => {
    const elsewhere = requests.filter((r) => new URL(r.url).hostname !== '127.0.0.1');
    assert.deepEqual(elsewhere, []);
  });
});
