/**
 * `svc docs`: the manual served as HTML. In-process over a real port: every page of docs/ renders,
 * with heading ids where the manual's links point (GitHub's ids), the generated tables' markers left
 * out; only `.md` files inside the root are served (no dot segments, no symbolic link leading out);
 * GET and HEAD only. As a process: it prints its address, serves, and stops on SIGTERM with exit 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startManualServer } from '../../src/cli/manual-server.js';
import { COMPILED, LOADER, ROOT } from '../paths.js';
import { svc } from './helpers.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A request as sent, path untouched (fetch would normalise `..` away). */
function get(base: string, path: string, method = 'GET'): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('every page of the manual is served as HTML, with the heading ids its links point at', async () => {
  const errors: string[] = [];
  const server = await startManualServer({ root: ROOT, host: '127.0.0.1', port: 0, onError: (m) => errors.push(m) });
  try {
    const home = await get(server.url, '/');
    assert.equal(home.status, 302);
    assert.equal(home.headers.location, '/docs/README.md');

    const pages = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    const html = new Map<string, string>();
    for (const page of pages) {
      const answer = await get(server.url, `/docs/${page}`);
      assert.equal(answer.status, 200, page);
      assert.match(String(answer.headers['content-type']), /^text\/html; charset=utf-8/);
      assert.match(String(answer.headers['content-security-policy']), /default-src 'none'/);
      assert.doesNotMatch(answer.body, /&lt;!--/, `${page}: an HTML comment shown as text`);
      html.set(page, answer.body);
    }
    const missing: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(ROOT, 'docs', page), 'utf8');
      for (const m of text.matchAll(/\]\(([a-z0-9-]+\.md)?#([^)\s]+)\)/g)) {
        const target = m[1] ?? page;
        if (!html.get(target)?.includes(`id="${m[2]}"`)) missing.push(`${page} -> ${target}#${m[2]}`);
      }
    }
    assert.deepEqual(missing, [], 'links whose heading id the rendered page lacks');
    assert.match(html.get('README.md')!, /<h1 id="the-svc-manual">The svc manual<\/h1>/);
    assert.match(html.get('README.md')!, /<a href="getting-started\.md">Getting started<\/a>/);
    assert.match(html.get('operations.md')!, /<a href="\/docs\/README\.md">The svc manual<\/a>/);
    assert.match(html.get('expressions.md')!, /<td><code>md5<\/code><\/td>/, 'the generated table is rendered');

    const readme = await get(server.url, '/README.md');
    assert.equal(readme.status, 200);
    assert.match(readme.body, /<h2 id="two-commands">Two commands<\/h2>/);
    const bench = await get(server.url, '/bench/health/README.md');
    assert.equal(bench.status, 200, 'a page the manual links to outside docs/');
  } finally {
    await server.close();
  }
  assert.deepEqual(errors, []);
});

test('only Markdown files inside the root, by GET or HEAD', async () => {
  const root = mkdtempSync(join(tmpdir(), 'svc-manual-'));
  const outside = mkdtempSync(join(tmpdir(), 'svc-manual-outside-'));
  try {
    mkdirSync(join(root, 'docs'));
    mkdirSync(join(root, '.hidden'));
    writeFileSync(join(root, 'docs', 'README.md'), '# Contents\n\n<script>alert(1)</script>\n\n[bad](javascript:alert(1))\n');
    writeFileSync(join(root, '.hidden', 'secret.md'), '# secret\n');
    writeFileSync(join(root, 'notes.txt'), 'not markdown\n');
    writeFileSync(join(outside, 'elsewhere.md'), '# elsewhere\n');
    symlinkSync(join(outside, 'elsewhere.md'), join(root, 'docs', 'link.md'));
    const server = await startManualServer({ root, host: '127.0.0.1', port: 0, onError: () => {} });
    try {
      const page = await get(server.url, '/docs/README.md');
      assert.equal(page.status, 200);
      assert.match(page.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/, 'raw HTML is shown as text');
      assert.doesNotMatch(page.body, /href="javascript:/);

      const head = await get(server.url, '/docs/README.md', 'HEAD');
      assert.equal(head.status, 200);
      assert.equal(head.body, '');
      assert.equal(head.headers['content-length'], String(Buffer.byteLength(page.body)));

      for (const path of ['/docs/none.md', '/notes.txt', '/.hidden/secret.md', '/%2e%2e/etc/passwd.md', '/docs/link.md', '/docs']) {
        assert.equal((await get(server.url, path)).status, 404, path);
      }
      assert.equal((await get(server.url, '/docs/%E0%A4%A.md')).status, 400);
      const post = await get(server.url, '/docs/README.md', 'POST');
      assert.equal(post.status, 405);
      assert.equal(post.headers.allow, 'GET, HEAD');
    } finally {
      await server.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
});

test('svc docs: a usage error for a bad port or an argument', async () => {
  const port = await svc(['docs', '--port', 'x']);
  assert.equal(port.code, 2);
  assert.match(port.stderr, /--port: "x" is not a port number/);
  const extra = await svc(['docs', 'docs/']);
  assert.equal(extra.code, 2);
  const help = await svc(['--help']);
  assert.match(help.stdout, /svc docs \[--host H\] \[--port P\]/);
});

test('svc docs as a process: prints its address, serves, stops on SIGTERM with exit 0', async () => {
  const entry = fileURLToPath(new URL(`./serve-helpers.${COMPILED ? 'js' : 'ts'}`, import.meta.url));
  const child = spawn(process.execPath, [...LOADER, entry, 'docs', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const poll = setInterval(() => {
        const m = /the manual at (http:\/\/[^/\s]+)\//.exec(out);
        if (m) {
          clearInterval(poll);
          resolve(m[1]!);
        } else if (child.exitCode !== null) {
          clearInterval(poll);
          reject(new Error(`svc docs exited ${child.exitCode}: ${err}`));
        }
      }, 20);
    });
    const page = await get(url, '/docs/cli.md');
    assert.equal(page.status, 200);
    assert.match(page.body, /<h1 id="command-line">Command line<\/h1>/);
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.match(out, /svc docs: stopped \(SIGTERM\)/);
  } finally {
    child.kill('SIGKILL');
  }
});
