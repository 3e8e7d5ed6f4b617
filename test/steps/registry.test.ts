import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StepSpec } from '../../src/steps/index.js';
import { compileEndpoint, expr, pipeline, RANGE, respond } from './helpers.js';

const base = { range: RANGE };

const UNSUPPORTED: [string, StepSpec][] = [
  ['stream', { ...base, kind: 'stream', blockPath: ['x'], format: 'sse', source: expr('[]'), flushEvery: 1, contentType: 'text/event-stream' }],
];

for (const [kind, spec] of UNSUPPORTED) {
  test(`${kind} steps are refused at boot with a diagnostic on the step block`, () => {
    const result = compileEndpoint(pipeline([spec, respond({})]));
    assert.equal(result.endpoint, undefined);
    assert.equal(result.diagnostics.length, 1);
    const [d] = result.diagnostics;
    assert.equal(d!.summary, `${kind} steps are not supported yet`);
    assert.equal(d!.subject, RANGE);
    assert.deepEqual(d!.path, spec.blockPath);
  });
}

const SUBSCRIBE: StepSpec = {
  ...base,
  kind: 'redis',
  name: 'feed',
  blockType: 'kv',
  blockPath: ['x'],
  connection: { kind: 'redis', name: 'r', range: RANGE },
  op: 'SUBSCRIBE',
  channel: expr('"events"'),
};

test('a redis SUBSCRIBE is refused at boot while stream steps cannot run', () => {
  const result = compileEndpoint(pipeline([SUBSCRIBE, respond({})]));
  assert.equal(result.endpoint, undefined);
  assert.deepEqual(
    result.diagnostics.map((d) => [d.summary, d.subject]),
    [['SUBSCRIBE needs a stream step, which is not supported yet', RANGE]],
  );
});

test('every unsupported step is reported at once', () => {
  const result = compileEndpoint(pipeline([SUBSCRIBE, ...UNSUPPORTED.map(([, spec]) => spec), respond({})]));
  assert.deepEqual(
    result.diagnostics.map((d) => d.summary),
    ['SUBSCRIBE needs a stream step, which is not supported yet', ...UNSUPPORTED.map(([kind]) => `${kind} steps are not supported yet`)],
  );
});

test('a guarded endpoint is refused rather than served without its guard', () => {
  const result = compileEndpoint(pipeline([respond({})], 'GET /t', ['admin']));
  assert.equal(result.endpoint, undefined);
  assert.match(result.diagnostics[0]!.summary, /auth guards are not supported yet/);
});

test('a pipeline that can finish without a response is a boot error', () => {
  const result = compileEndpoint(pipeline([respond({ condition: expr('ctx.request.method == "GET"') })]));
  assert.equal(result.endpoint, undefined);
  assert.match(result.diagnostics[0]!.summary, /without a response/);
});
