/**
 * Issue 35: `svc check` and `svc serve` count the same endpoints, documentation endpoints included,
 * and say how many of them are documentation; one endpoint is "1 endpoint".
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { svc } from './helpers.js';
import { get, kill, serve, type Served } from './serve-helpers.js';

const dirs: string[] = [];
const running: Served[] = [];
after(() => {
  for (const served of running) kill(served);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function manifestDir(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-endpoint-count-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'api.hcl'), text);
  return dir;
}

const PIPELINES = `
endpoint "GET /a" {
  pipeline {
    respond { body = { a = 1 } }
  }
}

endpoint "GET /b" {
  pipeline {
    respond { body = { b = 2 } }
  }
}
`;

const DOCUMENTATION = `
endpoint "GET /openapi.json" {
  openapi {
    format = "json"
  }
}

endpoint "GET /docs" {
  openapi {
    template = "<!doctype html><title>{{ .Title }}</title>"
  }
}
`;

test('check and serve agree: 4 endpoints, 2 of them documentation', async () => {
  const dir = manifestDir(PIPELINES + DOCUMENTATION);
  const check = await svc(['check', '-c', dir]);
  assert.equal(check.code, 0, check.stderr);
  assert.equal(check.stdout, 'ok: 4 endpoints (2 of them documentation), 0 schemas, 0 guards, 0 connections\n');
  const json = await svc(['check', '-c', dir, '--diagnostics=json']);
  assert.deepEqual(JSON.parse(json.stdout).summary, { endpoints: 4, documentation_endpoints: 2, schemas: 0, guards: 0, connections: 0 });

  const served = await serve(dir);
  running.push(served);
  assert.match(served.stderr(), /svc serve: listening on http:\/\/\S+ \(4 endpoints, 2 of them documentation\)\n/);
  // the log line (stdout) may come after the message on stderr
  let listening: string | undefined;
  for (const until = Date.now() + 15_000; listening === undefined && Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
    listening = served
      .stdout()
      .split('\n')
      .find((l) => l.includes('"msg":"listening"'));
  }
  assert.equal(JSON.parse(listening!).endpoints, 4);
  // the four are served
  for (const path of ['/a', '/b', '/openapi.json', '/docs']) assert.equal((await get(served.url + path)).status, 200, path);
  kill(served);
});

test('one endpoint is "1 endpoint", in check and in serve', async () => {
  const dir = manifestDir('endpoint "GET /only" {\n  pipeline {\n    respond { body = { ok = true } }\n  }\n}\n');
  const check = await svc(['check', '-c', dir]);
  assert.equal(check.stdout, 'ok: 1 endpoint, 0 schemas, 0 guards, 0 connections\n');
  const served = await serve(dir);
  running.push(served);
  assert.match(served.stderr(), /listening on http:\/\/\S+ \(1 endpoint\)\n/);
  kill(served);
});
