import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration } from '../../src/manifest/duration.js';
import { parseSize } from '../../src/manifest/size.js';

test('durations: units ms s m h, combinable, fractional', () => {
  assert.equal(parseDuration('250ms'), 250);
  assert.equal(parseDuration('30s'), 30_000);
  assert.equal(parseDuration('5m'), 300_000);
  assert.equal(parseDuration('2h'), 7_200_000);
  assert.equal(parseDuration('1m30s'), 90_000);
  assert.equal(parseDuration('1h5m10s250ms'), 3_910_250);
  assert.equal(parseDuration('1.5s'), 1500);
  assert.equal(parseDuration('0s'), 0);
});

test('durations: anything else is not a duration', () => {
  for (const bad of ['', '30', 's', '5d', '-1s', '1 m', '5 seconds', '1m30', 'ms5', '1e3ms']) {
    assert.equal(parseDuration(bad), undefined, bad);
  }
});

test('sizes: decimal and binary units, case-insensitive, optional space, bare bytes', () => {
  assert.equal(parseSize('100B'), 100);
  assert.equal(parseSize('1KB'), 1000);
  assert.equal(parseSize('1KiB'), 1024);
  assert.equal(parseSize('1MB'), 1_000_000);
  assert.equal(parseSize('1MiB'), 1_048_576);
  assert.equal(parseSize('2GB'), 2_000_000_000);
  assert.equal(parseSize('1GiB'), 1_073_741_824);
  assert.equal(parseSize('1.5 KiB'), 1536);
  assert.equal(parseSize('512kb'), 512_000);
  assert.equal(parseSize('4096'), 4096);
  assert.equal(parseSize(2048), 2048);
});

test('sizes: unknown units and negative or fractional byte counts are rejected', () => {
  for (const bad of ['', '1TB', 'MiB', '-1MB', '1 M', 'ten KB']) assert.equal(parseSize(bad), undefined, bad);
  assert.equal(parseSize(-1), undefined);
  assert.equal(parseSize(1.5), undefined);
});

test('time-outs and intervals must suit a timer: no zero, nothing past 2^31-1 ms (it would fire at once)', async () => {
  const { buildServiceModel: buildModel } = await import('../../src/steps/index.js');
  const build = (server: string, steps = '') =>
    buildModel([
      {
        filename: 'f.hcl',
        source: `server {\n${server}\n}\nconnection "redis" "c" {\n  url = "memory:"\n  }\nendpoint "GET /x" {\n  pipeline {\n${steps}\n    respond {\n      status = 200\n    }\n  }\n}\n`,
      },
    ]);
  const errors = (r: ReturnType<typeof build>) => r.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.subject?.start.line, d.summary]);
  assert.deepEqual(errors(build('request_timeout = "0s"\nshutdown_timeout = "1000h"')), [
    [2, 'Invalid duration'],
    [3, 'Invalid duration'],
  ]);
  const ok = build('request_timeout = "596h"\nshutdown_timeout = "1ms"');
  assert.deepEqual(errors(ok), []);
  assert.equal(ok.model!.server.requestTimeoutMs, 596 * 3_600_000);
  // A cache ttl is not a timer: 30 days is fine, 0 is not.
  const kv = (ttl: string) => `    redis "k" {\n      command = "SET"\n      key = "a"\n      value = "b"\n      ttl = "${ttl}"\n    }`;
  assert.deepEqual(errors(build('', kv('720h'))), []);
  assert.deepEqual(errors(build('', kv('0s'))), [[13, 'Invalid duration']]);
});
