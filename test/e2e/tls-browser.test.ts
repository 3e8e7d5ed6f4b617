/**
 * HTTPS with HTTP/2 in a real browser (docs/tls.md): headless Chromium (Debian's
 * `chromium`, puppeteer-core, `--ignore-certificate-errors` for the certificate openssl made for the
 * run) loads a page served by `svc serve` over HTTPS, which opens ten EventSources to the same origin;
 * the page is on HTTP/2, all ten open, and every one receives the one event published after. Over
 * HTTP/1.1 the seventh would wait for a free connection (six per origin). Every request the page makes
 * goes to 127.0.0.1 (other hosts do not even resolve in this browser).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { kill, serve } from '../cli/serve-helpers.js';
import { h2, h2Request, makeCertificate } from '../http/tls-helpers.js';

function chromiumPath(): string | undefined {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const FEEDS = 10;

const MANIFEST = `
server {
  tls {
    cert_file = "tls/cert.pem"
    key_file  = "tls/key.pem"
  }
}

connection "redis" "feed" {
  url = "memory:"
}

endpoint "GET /events" {
  pipeline {
    redis "feed" {
      connection = connection.redis.feed
      command    = "SUBSCRIBE"
      channel    = "feed"
    }
    stream "sse" {
      source = steps.feed.stream
      event  = "posted"
    }
  }
}

endpoint "POST /events" {
  request {
    body {
      field "text" {
        type     = string
        required = true
      }
    }
  }
  pipeline {
    redis "announce" {
      connection = connection.redis.feed
      command    = "PUBLISH"
      channel    = "feed"
      value      = { text = ctx.request.body.text }
    }
    respond {
      status = 202
      body   = { ok = true }
    }
  }
}

endpoint "GET /" {
  pipeline {
    respond {
      headers = {
        "Content-Type" = "text/html; charset=utf-8"
      }
      body = <<-EOT
        <!doctype html>
        <html><head><meta charset="utf-8"></head><body>
        <script>
          window.feeds = { opened: 0, received: [] };
          for (var i = 0; i < ${FEEDS}; i++) {
            (function (n) {
              var source = new EventSource('/events');
              source.onopen = function () { window.feeds.opened++; };
              source.addEventListener('posted', function (e) { window.feeds.received.push(n + ':' + e.data); });
            })(i);
          }
        </script>
        </body></html>
      EOT
    }
  }
}
`;

const chromium = chromiumPath();

test(`HTTPS + HTTP/2 in headless Chromium: one page, ${FEEDS} EventSources to one origin, every one receives the event`, { timeout: 90_000 }, async (t) => {
  if (chromium === undefined) {
    t.skip('chromium is not installed');
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'svc-tls-browser-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'tls'));
  makeCertificate(join(dir, 'tls'), 'browser');
  await writeFile(join(dir, 'main.hcl'), MANIFEST);
  const served = await serve(dir);
  t.after(() => kill(served));

  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--ignore-certificate-errors',
      '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
    ],
  });
  t.after(() => browser.close());
  const page = await browser.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(`${served.url}/`, { waitUntil: 'load', timeout: 15_000 });
  assert.equal(await page.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol"), 'h2');
  await page.waitForFunction(`window.feeds.opened === ${FEEDS}`, { timeout: 15_000, polling: 50 });

  const session = await h2(served.url);
  try {
    assert.equal((await h2Request(session, '/events', 'POST', '{"text":"to every feed"}', { 'content-type': 'application/json' })).status, 202);
  } finally {
    session.close();
  }
  await page.waitForFunction(`window.feeds.received.length === ${FEEDS}`, { timeout: 15_000, polling: 50 });
  const received = (await page.evaluate('window.feeds.received.slice().sort()')) as string[];
  assert.deepEqual(received, Array.from({ length: FEEDS }, (_, n) => `${n}:{"text":"to every feed"}`).sort());
  const origin = new URL(served.url).origin;
  assert.ok(
    requests.every((url) => url.startsWith(origin)),
    requests.join('\n'),
  );
});
