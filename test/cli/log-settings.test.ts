/**
 * `svc serve`'s logging settings: the level's precedence (flag, LOG_LEVEL, server block, info), the
 * format, usage errors for unknown values, and a real `svc serve` process with the pretty format,
 * access_log = false and metrics on.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { UsageError } from '../../src/cli/args.js';
import { logLevelOf, logSettings } from '../../src/cli/log-settings.js';
import { parseMetrics, sampleValue } from '../http/metrics-helpers.js';
import { svc } from './helpers.js';
import { LOADER, moduleUrl } from '../paths.js';

const args = (flags: Record<string, string>) => ({ flags, positionals: [] });

test('the level: --log-level, else LOG_LEVEL, else the server block, else info', () => {
  const server = { logLevel: 'debug' as const };
  assert.equal(logLevelOf(logSettings(args({ 'log-level': 'error' }), { LOG_LEVEL: 'warn' }), server), 'error');
  assert.equal(logLevelOf(logSettings(args({}), { LOG_LEVEL: 'warn' }), server), 'warn');
  assert.equal(logLevelOf(logSettings(args({}), {}), server), 'debug');
  assert.equal(logLevelOf(logSettings(args({}), { LOG_LEVEL: '' }), server), 'debug');
  assert.equal(logLevelOf(logSettings(args({}), {}), {}), 'info');
  assert.equal(logSettings(args({}), {}).format, 'json');
  assert.equal(logSettings(args({ 'log-format': 'pretty' }), {}).format, 'pretty');
  assert.throws(() => logSettings(args({ 'log-level': 'loud' }), {}), UsageError);
  assert.throws(
    () => logSettings(args({}), { LOG_LEVEL: 'verbose' }),
    /LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent; got "verbose"/,
  );
  assert.throws(() => logSettings(args({ 'log-format': 'xml' }), {}), /--log-format must be one of json, pretty; got "xml"/);
});

test('unknown --log-level, --log-format or LOG_LEVEL: the usage, exit 2, nothing booted', async () => {
  const level = await svc(['serve', '-c', 'examples/quickstart', '--log-level', 'loud']);
  assert.equal(level.code, 2);
  assert.match(level.stderr, /svc serve: --log-level must be one of trace, debug, info, warn, error, fatal, silent; got "loud"/);
  assert.match(level.stderr, /Usage: svc serve/);
  const format = await svc(['serve', '-c', 'examples/quickstart', '--log-format=xml']);
  assert.equal(format.code, 2);
  assert.match(format.stderr, /--log-format must be one of json, pretty/);
  const env = await svc(['serve', '-c', 'examples/quickstart'], { LOG_LEVEL: 'LOUD' });
  assert.equal(env.code, 2);
  assert.match(env.stderr, /LOG_LEVEL must be one of/);
  const help = await svc(['serve', '--help']);
  assert.match(help.stdout, /--log-level L/);
  assert.match(help.stdout, /--log-format F/);
});

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function manifest(server: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-log-settings-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'main.hcl'), `server {\n${server}\n}\nendpoint "GET /a" {\n  pipeline {\n    respond {\n      body = "a"\n    }\n  }\n}\n`);
  return dir;
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `svc serve` as a process; `whileListening` runs against its URL, then it gets SIGTERM. */
function serve(argv: string[], env: Record<string, string>, whileListening: (url: string) => Promise<void>): Promise<Run> {
  const entry = `import(${JSON.stringify(moduleUrl('src/cli/main.ts'))}).then(async (m) => { process.exitCode = await m.run(process.argv.slice(1)); })`;
  const child = spawn(process.execPath, [...LOADER, '-e', entry, 'serve', '--port', '0', ...argv], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: '', ...env },
  });
  let stdout = '';
  let stderr = '';
  let failure: unknown;
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    const m = /listening on (http:\/\/\S+)/.exec(stderr);
    if (m && !child.killed) {
      whileListening(m[1]!).then(
        () => child.kill('SIGTERM'),
        (error: unknown) => {
          failure = error;
          child.kill('SIGTERM');
        },
      );
    }
  });
  return new Promise((resolve, reject) => child.once('exit', (code) => (failure === undefined ? resolve({ code, stdout, stderr }) : reject(failure as Error))));
}

test('svc serve --log-format=pretty with access_log = false and metrics: readable lines, no request line, requests counted', { timeout: 60_000 }, async () => {
  const dir = manifest('  access_log = false\n  metrics    = "/metrics"');
  let page = '';
  const run = await serve(['-c', dir, '--log-format=pretty'], {}, async (url) => {
    for (let i = 0; i < 3; i++) assert.equal((await fetch(`${url}/a`)).status, 200);
    const response = await fetch(`${url}/metrics`);
    assert.equal(response.status, 200);
    page = await response.text();
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(sampleValue(parseMetrics(page), 'svc_http_requests_total', { method: 'GET', route: '/a', status: '200' }), 3);
  // pino-pretty shows a `pid` field beside the level.
  assert.match(run.stdout, /^\[[\d:.]+\] INFO(?: \(\d+\))?: listening \{"url":"http:/m);
  assert.match(run.stdout, /INFO: stopped/);
  assert.doesNotMatch(run.stdout, /GET \/a/, 'no access log line');
  assert.doesNotMatch(run.stdout, /^\{/m, 'no JSON line');
});

test('svc serve: --log-level=silent over LOG_LEVEL and the server block writes nothing; LOG_LEVEL=warn drops info', { timeout: 60_000 }, async () => {
  const dir = manifest('  log_level = "debug"');
  const hit = async (url: string): Promise<void> => {
    assert.equal((await fetch(`${url}/a`)).status, 200);
  };
  const silent = await serve(['-c', dir, '--log-level=silent'], { LOG_LEVEL: 'info' }, hit);
  assert.equal(silent.code, 0, silent.stderr);
  assert.equal(silent.stdout, '');
  const warn = await serve(['-c', dir], { LOG_LEVEL: 'warn' }, hit);
  assert.equal(warn.code, 0, warn.stderr);
  assert.equal(warn.stdout, '');
  const debug = await serve(['-c', dir], {}, hit);
  assert.equal(debug.code, 0, debug.stderr);
  const lines = debug.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { msg: string; url?: string });
  assert.ok(
    lines.some((l) => l.msg === 'request' && l.url === '/a'),
    debug.stdout,
  );
});
