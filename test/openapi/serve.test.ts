/**
 * Spec endpoints (SPEC.md §4.2, issue 12): `openapi { format = "json" | "yaml" }` serves the document
 * built once at boot. The quickstart is served by `svc serve` in a child process over a real socket:
 * the JSON is `svc openapi`'s output byte for byte, the YAML parses to the same object, ETag +
 * `Cache-Control: no-cache` and a 304 on `If-None-Match`. In-process servers cover guards and 405s
 * beside pipeline endpoints. Renderer pages and templates: test/docs/.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { parse } from 'yaml';
import { buildServer, createLogger, docsSites } from '../../src/http/index.js';
import { buildServiceModel, compileService } from '../../src/steps/index.js';
import { svc } from '../cli/helpers.js';
import { ROOT as root, LOADER, moduleUrl } from '../paths.js';

let child: ChildProcess | undefined;
let base = '';

before(async () => {
  // `svc serve` from the sources, as a process: serve.ts's wiring, a real socket, a clean exit.
  const main = `import { run } from ${JSON.stringify(moduleUrl('src/cli/main.ts'))}; process.exitCode = await run(process.argv.slice(1));`;
  child = spawn(process.execPath, [...LOADER, '--input-type=module', '-e', main, 'serve', '-c', 'examples/quickstart', '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc did not listen within 30 s:\n${err}`)), 30_000);
    child!.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child!.once('exit', (code) => reject(new Error(`svc exited with ${code}:\n${err}`)));
  });
});

after(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

test('GET /openapi.json is the output of svc openapi, byte for byte, with validators for caching', async () => {
  const cli = await svc(['openapi', '-c', join(root, 'examples', 'quickstart')]);
  assert.equal(cli.code, 0, cli.stderr);
  const res = await fetch(`${base}/openapi.json`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(res.headers.get('cache-control'), 'no-cache');
  assert.match(res.headers.get('etag') ?? '', /^"[A-Za-z0-9_-]{43}"$/);
  assert.ok(res.headers.get('x-request-id'));
  assert.equal(await res.text(), cli.stdout);
  // Documentation endpoints are not in the document they serve.
  const paths = Object.keys((JSON.parse(cli.stdout) as { paths: object }).paths);
  assert.ok(paths.includes('/api/v1/health') && !paths.includes('/openapi.json') && !paths.includes('/openapi.yaml'), paths.join(', '));
});

test('GET /openapi.yaml parses to the same object as the JSON', async () => {
  const [json, yaml] = await Promise.all([fetch(`${base}/openapi.json`), fetch(`${base}/openapi.yaml`)]);
  assert.equal(yaml.status, 200);
  assert.equal(yaml.headers.get('content-type'), 'application/yaml');
  assert.equal(yaml.headers.get('cache-control'), 'no-cache');
  assert.notEqual(yaml.headers.get('etag'), json.headers.get('etag'));
  assert.deepEqual(parse(await yaml.text()), await json.json());
});

test('If-None-Match: 304 without a body for the current tag (weak, listed or *), 200 for another', async () => {
  const first = await fetch(`${base}/openapi.json`);
  const etag = first.headers.get('etag')!;
  await first.arrayBuffer();
  for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
    const res = await fetch(`${base}/openapi.json`, { headers: { 'if-none-match': header } });
    assert.equal(res.status, 304, header);
    assert.equal(res.headers.get('etag'), etag);
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    assert.equal(await res.text(), '');
  }
  const stale = await fetch(`${base}/openapi.json`, { headers: { 'if-none-match': '"stale"' } });
  assert.equal(stale.status, 200);
  assert.ok((await stale.text()).startsWith('{'));
});

test('HEAD answers the headers only; another method is a 405 that lists GET and HEAD', async () => {
  const head = await fetch(`${base}/openapi.yaml`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('content-type'), 'application/yaml');
  assert.ok(Number(head.headers.get('content-length')) > 1000);
  const post = await fetch(`${base}/openapi.json`, { method: 'POST', body: '{}' });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD');
  assert.equal(post.headers.get('content-type'), 'application/problem+json; charset=utf-8');
});

// ------------------------------------------------------------------ in-process servers

async function serveSource(source: string) {
  const built = buildServiceModel([{ filename: 'main.hcl', source }]);
  assert.ok(built.model, built.diagnostics.map((d) => d.summary).join('; '));
  const service = compileService(built.model);
  assert.deepEqual(
    service.diagnostics.map((d) => d.summary),
    [],
  );
  const lines: string[] = [];
  const app = await buildServer({
    endpoints: service.endpoints,
    docs: docsSites(service.docs, built.model),
    bodyLimit: 1024,
    requestTimeoutMs: 1000,
    logger: createLogger({ stream: { write: (line: string) => lines.push(line) } }),
  });
  return { app, lines };
}

test('a guarded spec endpoint answers 401 without credentials and the document with them; each request is logged', async () => {
  const { app, lines } = await serveSource(`
auth "team" {
  type     = "basic"
  username = "ann"
  password = "secret"
}
endpoint "GET /internal/openapi.json" {
  auth = [auth.team]
  openapi {
    format = "json"
  }
}
endpoint "GET /ping" {
  auth = []
  pipeline {
    respond { body = "pong" }
  }
}`);
  try {
    const refused = await app.inject({ url: '/internal/openapi.json' });
    assert.equal(refused.statusCode, 401);
    assert.match(String(refused.headers['www-authenticate']), /^Basic/);
    const admitted = await app.inject({ url: '/internal/openapi.json', headers: { authorization: `Basic ${Buffer.from('ann:secret').toString('base64')}` } });
    assert.equal(admitted.statusCode, 200);
    const document = admitted.json() as { paths: Record<string, unknown>; components: { securitySchemes?: unknown } };
    assert.deepEqual(Object.keys(document.paths), ['/ping']);
    // The guard protects the page, not an operation of the document: no scheme is listed.
    assert.equal(document.components.securitySchemes, undefined);
    assert.equal(lines.length, 2);
    assert.match(lines[1]!, /"status":200/);
  } finally {
    await app.close();
  }
});

test('a spec endpoint and a pipeline endpoint on one path: both served, the 405 lists both methods', async () => {
  const { app } = await serveSource(`
endpoint "GET /api" {
  openapi {
    format = "yaml"
  }
}
endpoint "POST /api" {
  pipeline {
    respond { status = 201 }
  }
}`);
  try {
    assert.equal((await app.inject({ url: '/api' })).headers['content-type'], 'application/yaml');
    assert.equal((await app.inject({ method: 'POST', url: '/api' })).statusCode, 201);
    const put = await app.inject({ method: 'PUT', url: '/api' });
    assert.equal(put.statusCode, 405);
    assert.equal(put.headers.allow, 'GET, HEAD, POST');
  } finally {
    await app.close();
  }
});
