/**
 * `server { tracing { ... } }` decoded (diagnostics with their place for bad values), and the settings
 * the block and the OTEL_* environment give together (src/tracing/settings.ts): when tracing is on,
 * and which wins where both say something.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeOf } from '../../src/diag/index.js';
import { buildServiceModel } from '../../src/steps/index.js';
import { tracingSettings, tracingWanted } from '../../src/tracing/index.js';

function decode(tracing: string) {
  const source = `server {\n  tracing {\n${tracing}\n  }\n}\n`;
  return buildServiceModel([{ filename: 'main.hcl', source }]);
}

test('the block decodes its four attributes; header names are lower-cased', () => {
  const built = decode(`
    endpoint     = "https://collector.example:4318"
    service_name = "orders"
    sample_ratio = 0.25
    headers      = { "X-Api-Key" = "secret" }`);
  assert.deepEqual(built.diagnostics, []);
  assert.deepEqual(built.model?.server.tracing, {
    endpoint: 'https://collector.example:4318',
    serviceName: 'orders',
    sampleRatio: 0.25,
    headers: { 'x-api-key': 'secret' },
  });
  assert.deepEqual(decode('').model?.server.tracing, {}, 'an empty block turns tracing on with the defaults');
});

test('bad values are diagnostics at the attribute, with a stable code', () => {
  const cases: [string, RegExp][] = [
    ['endpoint = "localhost:4318"', /OTLP\/HTTP base URL of a collector/],
    ['endpoint = "ftp://collector"', /OTLP\/HTTP base URL/],
    ['endpoint = "http://collector:4318/?key=1"', /OTLP\/HTTP base URL/],
    ['service_name = " "', /cannot be empty/],
    ['sample_ratio = 1.5', /between 0 and 1|at most 1|must be/],
    ['sample_ratio = -0.1', /must be/],
    ['headers = ["x"]', /map of header names to strings/],
    ['headers = { "bad name" = "x" }', /"bad name" is not one/],
    ['headers = { "x-key" = 1 }', /"x-key" is not one/],
  ];
  for (const [attribute, detail] of cases) {
    const built = decode(`    ${attribute}`);
    assert.equal(built.diagnostics.length, 1, `${attribute}: ${built.diagnostics.map((d) => d.detail).join('; ')}`);
    const [d] = built.diagnostics;
    assert.match(d!.detail ?? '', detail, attribute);
    assert.equal(d!.subject?.start.line, 3, `${attribute}: reported on its own line`);
    assert.ok(codeOf(d!)?.startsWith('SVC_MANIFEST_'), `${attribute}: ${d!.summary} has a code`);
  }
  const unknown = decode('    sampler = "always_on"');
  assert.equal(unknown.diagnostics.length, 1);
  assert.match(unknown.diagnostics[0]!.summary, /Unsupported argument/);
});

test('on with the block, or with the environment asking for OTLP; OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER=none win over both', () => {
  assert.equal(tracingWanted(undefined, {}), false);
  assert.equal(tracingWanted({}, {}), true);
  assert.equal(tracingWanted(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }), true);
  assert.equal(tracingWanted(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }), true);
  assert.equal(tracingWanted(undefined, { OTEL_TRACES_EXPORTER: 'otlp' }), true);
  assert.equal(tracingWanted(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }), false, 'an empty variable says nothing');
  assert.equal(tracingWanted({}, { OTEL_SDK_DISABLED: 'TRUE' }), false);
  assert.equal(tracingWanted({}, { OTEL_TRACES_EXPORTER: 'none' }), false);
  assert.equal(tracingWanted(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }), false);
  assert.equal(tracingSettings(undefined, {}), undefined);
});

test("the block's attribute over its environment variable over the default", () => {
  const env = { OTEL_SERVICE_NAME: 'from-env', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318' };
  assert.deepEqual(tracingSettings({ serviceName: 'from-block', endpoint: 'http://block:4318/' }, env), {
    serviceName: 'from-block',
    tracesUrl: 'http://block:4318/v1/traces',
  });
  // Without the block's endpoint, the exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT itself.
  assert.deepEqual(tracingSettings({}, env), { serviceName: 'from-env' });
  assert.deepEqual(tracingSettings({}, {}), { serviceName: 'svc' });
  assert.deepEqual(tracingSettings({ sampleRatio: 0.5, headers: { a: 'b' } }, {}), { serviceName: 'svc', sampleRatio: 0.5, headers: { a: 'b' } });
});
