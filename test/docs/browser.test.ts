/**
 * The four renderers in a real browser (issue 12): `svc serve` (the built binary, as a process)
 * serves a manifest with a page per renderer, once loading the document from its JSON spec endpoint
 * and once, with no spec endpoint declared, embedding it. Headless Chromium (Debian's `chromium`,
 * driven by puppeteer-core) opens each page and waits until every operation is rendered in the DOM;
 * every request the page made went to the server on 127.0.0.1 (or was a data: or blob: URL made in
 * the page) and was answered without an error. Other hosts do not even resolve in this browser, and
 * the description holds a mermaid diagram, which Elements would fetch mermaid from a CDN to draw.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { ensureBuilt } from '../e2e/build.js';
import { kill, serve, stop, type Served } from '../e2e/live-helpers.js';

const RENDERERS = ['scalar', 'elements', 'swagger', 'redoc'] as const;
const OPERATIONS = ['List the pets', 'Adopt a pet', 'Fetch one pet'];

function chromiumPath(): string | undefined {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function manifest(withSpecEndpoint: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-docs-browser-'));
  const pages = RENDERERS.map((ui) => `endpoint "GET /docs/${ui}" {\n  openapi { ui = "${ui}" }\n}\n`).join('\n');
  const spec = withSpecEndpoint ? 'endpoint "GET /openapi.json" {\n  openapi { format = "json" }\n}\n' : '';
  writeFileSync(
    join(dir, 'api.hcl'),
    `openapi {
  title       = "Pet shelter"
  version     = "3.1.4"
  description = <<EOT
Pets, documented **offline**.

\`\`\`mermaid
graph TD; Shelter-->Home;
\`\`\`
EOT
}
endpoint "GET /pets" {
  description = "${OPERATIONS[0]}"
  pipeline {
    respond { body = [] }
  }
}
endpoint "POST /pets" {
  description = "${OPERATIONS[1]}"
  pipeline {
    respond { status = 201 }
  }
}
endpoint "GET /pets/{id}" {
  description = "${OPERATIONS[2]}"
  pipeline {
    respond { body = { id = ctx.request.path.id } }
  }
}
${spec}
${pages}`,
  );
  return dir;
}

interface Seen {
  requests: string[];
  failures: string[];
}

async function open(browser: Browser, url: string): Promise<Seen> {
  const page = await browser.newPage();
  // A desktop window: narrower, Scalar folds its sidebar away and draws operations only when scrolled to.
  await page.setViewport({ width: 1280, height: 900 });
  const seen: Seen = { requests: [], failures: [] };
  page.on('request', (request) => seen.requests.push(request.url()));
  page.on('requestfailed', (request) => seen.failures.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) seen.failures.push(`${response.url()}: ${response.status()}`);
  });
  try {
    await page.goto(url, { waitUntil: 'load', timeout: 10_000 });
    const condition = `(() => { const text = document.body.innerText; return ${JSON.stringify(OPERATIONS)}.every((o) => text.includes(o)); })()`;
    try {
      await page.waitForFunction(condition, { timeout: 10_000, polling: 100 });
    } catch (error) {
      const text = (await page.evaluate('document.body.innerText')) as string;
      throw new Error(`${url}: the operations were not all rendered within 10 s; the page shows:\n${text.slice(0, 2000)}`, { cause: error });
    }
  } finally {
    await page.close();
  }
  return seen;
}

const chromium = chromiumPath();

test('the four renderers in headless Chromium: operations rendered, no request to another host', { timeout: 90_000 }, async (t) => {
  if (chromium === undefined) {
    t.skip('chromium is not installed (scripts/test.sh installs the Debian package when it can)');
    return;
  }
  ensureBuilt();
  const dirs = [manifest(true), manifest(false)];
  const servers: Served[] = [];
  t.after(() => {
    for (const served of servers) kill(served);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  servers.push(...(await Promise.all(dirs.map((dir) => serve(dir)))));
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1'],
  });
  t.after(() => browser.close());

  for (const [served, how] of [
    [servers[0]!, 'loading /openapi.json'],
    [servers[1]!, 'embedding the document'],
  ] as const) {
    for (const ui of RENDERERS) {
      await t.test(`${ui}, ${how}`, async () => {
        const seen = await open(browser, `${served.url}/docs/${ui}`);
        const elsewhere = seen.requests.filter(
          (url) => !url.startsWith(`${served.url}/`) && !url.startsWith('data:') && !url.startsWith(`blob:${served.url}/`),
        );
        assert.deepEqual(elsewhere, [], 'every request went to the server');
        assert.deepEqual(seen.failures, [], 'every request was answered');
        const paths = seen.requests.filter((url) => url.startsWith(`${served.url}/`)).map((url) => new URL(url).pathname);
        assert.equal(paths[0], `/docs/${ui}`);
        assert.ok(
          paths.slice(1).every((p) => p.startsWith(`/docs/${ui}/assets/`) || p === '/openapi.json'),
          paths.join(', '),
        );
        assert.equal(paths.includes('/openapi.json'), how === 'loading /openapi.json', paths.join(', '));
      });
    }
  }
  for (const served of servers) assert.deepEqual(await stop(served), { code: 0, signal: null });
});
