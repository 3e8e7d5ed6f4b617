/**
 * Tracing costs nothing when it is off: a service whose manifest and environment say nothing of
 * tracing loads no module of OpenTelemetry (src/tracing/start.ts imports the SDK dynamically), its
 * log lines carry no trace ids. A resolve hook in the served process (module.register) reports every
 * `@opentelemetry/` module the process imports; the same service with OTEL_EXPORTER_OTLP_ENDPOINT
 * set is the control (the hook does see the SDK then). `OTEL_SDK_DISABLED=true` turns a manifest's
 * tracing off.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { kill, serve, type Served } from '../cli/serve-helpers.js';
import { manifestDir } from './helpers.js';
import { startReceiver, type Receiver } from './otlp-receiver.js';

const MANIFEST = (tracing: string) => `
server {
  ${tracing}
}

endpoint "GET /ping" {
  pipeline {
    respond {
      body = { ok = true }
    }
  }
}
`;

/** Registers, in the served process, a resolve hook that prints each OpenTelemetry module imported. */
const HOOK = `
import { register } from 'node:module';
const hooks = "export async function resolve(s, c, n) { const r = await n(s, c); if (r.url.includes('/node_modules/@opentelemetry/')) process.stderr.write('opentelemetry module: ' + r.url + '\\\\n'); return r; }";
register('data:text/javascript,' + encodeURIComponent(hooks));
`;

/** The environment without any OTEL_* variable of the test run's own. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('OTEL_') && v !== undefined) env[k] = v;
  return env;
}

let receiver: Receiver;
let hookOptions: string;
const served: Served[] = [];

before(async () => {
  receiver = await startReceiver();
  const dir = await mkdtemp(join(tmpdir(), 'svc-tracing-hook-'));
  const hook = join(dir, 'report-opentelemetry.mjs');
  await writeFile(hook, HOOK);
  hookOptions = `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(hook).href}`.trim();
});

after(async () => {
  for (const s of served) kill(s);
  await receiver?.close();
});

async function serveWith(tracing: string, env: Record<string, string>): Promise<Served> {
  const s = await serve(await manifestDir(MANIFEST(tracing)), [], { ...cleanEnv(), NODE_OPTIONS: hookOptions, ...env });
  served.push(s);
  return s;
}

function ping(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/ping`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Polls stdout for the request's log line (lines leave in batches). */
async function requestLine(s: Served): Promise<Record<string, unknown>> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 25))) {
    const line = s
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.msg === 'request');
    if (line !== undefined) return line;
  }
  throw new Error(`no request line:\n${s.stdout()}`);
}

test('without tracing, no OpenTelemetry module is loaded and log lines carry no trace ids', async () => {
  const s = await serveWith('', {});
  assert.equal(await ping(s.url), 200);
  const line = await requestLine(s);
  assert.equal(line.trace_id, undefined);
  assert.doesNotMatch(s.stderr(), /opentelemetry module/);
});

test('the control: with OTEL_EXPORTER_OTLP_ENDPOINT the same service loads the SDK, traces, and logs the trace id', async () => {
  const s = await serveWith('', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50' });
  assert.equal(await ping(s.url), 200);
  const line = await requestLine(s);
  // The hook's lines come from its own thread and may follow the "listening" line (seen on Node 26).
  await s.waitFor(/opentelemetry module: \S+\/@opentelemetry\/sdk-trace-base\//, 10_000);
  assert.match(String(line.trace_id), /^[0-9a-f]{32}$/);
  await receiver.waitFor((spans) => spans.some((span) => span.traceId === line.trace_id && span.name === 'GET /ping'));
});

test('OTEL_SDK_DISABLED=true turns off the tracing a manifest declares; OTEL_TRACES_EXPORTER=none too', async () => {
  const envs: Record<string, string>[] = [{ OTEL_SDK_DISABLED: 'true' }, { OTEL_TRACES_EXPORTER: 'none' }];
  for (const env of envs) {
    const s = await serveWith(`tracing {\n endpoint = "${receiver.url}"\n}`, env);
    assert.equal(await ping(s.url), 200);
    const line = await requestLine(s);
    assert.equal(line.trace_id, undefined, JSON.stringify(env));
    assert.doesNotMatch(s.stderr(), /opentelemetry module/, JSON.stringify(env));
  }
});
