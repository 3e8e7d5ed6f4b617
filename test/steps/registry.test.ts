import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StepSpec } from '../../src/steps/index.js';
import { compileEndpoint, expr, pipeline, RANGE, respond, serviceOf } from './helpers.js';

const base = { range: RANGE };

test('a stream step compiles to the sink that ends the pipeline', () => {
  const stream: StepSpec = { ...base, kind: 'stream', blockPath: ['x'], format: 'sse', source: expr('[]'), flushEvery: 1, contentType: 'text/event-stream' };
  const result = compileEndpoint(pipeline([stream]));
  assert.deepEqual(result.diagnostics, []);
  assert.ok(result.endpoint);
});

test('a guarded endpoint compiles with its guard; a public one has none', () => {
  const endpoint = pipeline([respond({})], 'GET /t', ['admin']);
  const admin = { name: 'admin', type: 'basic', username: 'a', password: 'b', range: RANGE } as const;
  const guarded = compileEndpoint(endpoint, { ...serviceOf(endpoint), auths: new Map([['admin', admin]]) });
  assert.deepEqual(guarded.diagnostics, []);
  assert.deepEqual(guarded.endpoint?.guard?.guards, ['admin']);
  assert.equal(compileEndpoint(pipeline([respond({})])).endpoint?.guard, undefined);
});

test('a pipeline that can finish without a response is a boot error', () => {
  const result = compileEndpoint(pipeline([respond({ condition: expr('ctx.request.method == "GET"') })]));
  assert.equal(result.endpoint, undefined);
  assert.match(result.diagnostics[0]!.summary, /without a response/);
});
