import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EndpointResult } from '../../src/steps/index.js';
import type { StepSpec } from '../../src/steps/index.js';
import { compileEndpoint, statusOf, ctx, expr, pipeline, respond } from './helpers.js';

function compile(steps: StepSpec[]) {
  const result = compileEndpoint(pipeline(steps));
  assert.deepEqual(result.diagnostics, []);
  return result.endpoint!;
}

function runSync(steps: StepSpec[], c = ctx()): EndpointResult {
  const out = compile(steps).run(c);
  assert.notEqual(out.kind, 'pending', 'a pipeline of expressions runs synchronously');
  return out as EndpointResult;
}

test('respond builds status, headers and body from expressions, synchronously', () => {
  const out = runSync([
    respond({
      statusCode: 201,
      headers: expr('{ "X-Id" = ctx.request_id, "X-N" = 3 }'),
      body: expr('{ status = "ok", timestamp = ctx.timestamp_epoch }'),
    }),
  ]);
  assert.deepEqual(out, {
    kind: 'response',
    status: 201,
    headers: { 'X-Id': 'r-1', 'X-N': '3' },
    body: { status: 'ok', timestamp: 1_700_000_000 },
    problem: false,
    // Serialized by the step, which holds it to the response size bound (issue 15).
    json: '{"status":"ok","timestamp":1700000000}',
  });
});

test('a constant respond is built once and serialized at boot', () => {
  const endpoint = compile([respond({ body: expr('{ a = [1, 2], b = "x" }') })]);
  const first = endpoint.run(ctx());
  const second = endpoint.run(ctx());
  assert.equal(first, second, 'the same result object serves every request');
  assert.equal((first as { json?: string }).json, '{"a":[1,2],"b":"x"}');
});

test('status defaults to 200 and a missing body is no body', () => {
  const out = runSync([respond({})]);
  assert.equal(out.kind === 'response' && out.status, 200);
  assert.equal(out.kind === 'response' && out.body, null);
});

test('a true condition exits early; a false one is skipped', () => {
  const steps = [
    respond({ condition: expr('ctx.request.path.kind != "tea"'), statusCode: 404, body: expr('problem(404, "No such teapot")') }),
    respond({ statusCode: 418, body: expr('{ brewing = ctx.request.path.kind }') }),
  ];
  const miss = runSync(steps, ctx({ path: { kind: 'coffee' } }));
  assert.equal(miss.kind, 'response');
  if (miss.kind !== 'response') return;
  assert.equal(miss.status, 404);
  assert.equal(miss.problem, true);
  assert.deepEqual({ ...(miss.body as object) }, { type: 'urn:svc:error:not-found', title: 'No such teapot', status: 404 });
  const hit = runSync(steps, ctx({ path: { kind: 'tea' } }));
  assert.deepEqual(hit.kind === 'response' && hit.body, { brewing: 'tea' });
  assert.equal(hit.kind === 'response' && hit.status, 418);
});

test('a failing expression is a 500 failure naming the step', () => {
  const out = runSync([respond({ body: expr('{ n = 1 + ctx.request.query.x }') })], ctx({ query: { x: 'abc' } }));
  assert.equal(out.kind, 'failure');
  if (out.kind !== 'failure') return;
  assert.equal(statusOf(out), 500);
  assert.equal(out.step, 'respond#1');
  assert.ok(out.error instanceof Error);
});

test('a dynamic status outside 100-599 is a failure, not a crash', () => {
  const out = runSync([respond({ statusCode: undefined, status: expr('ctx.request.query.s') })], ctx({ query: { s: 42 } }));
  assert.equal(out.kind, 'failure');
});

test('a non-bool condition is a failure', () => {
  const out = runSync([respond({ condition: expr('ctx.request.query.s'), statusCode: 200 }), respond({})], ctx({ query: { s: 'yes' } }));
  assert.equal(out.kind, 'failure');
});

test('a header that is not a valid field fails the step instead of the response', () => {
  const out = runSync([respond({ headers: expr('{ "X-A" = ctx.request.query.x }') })], ctx({ query: { x: 'a\nb' } }));
  assert.equal(out.kind, 'failure');
  assert.equal(out.kind === 'failure' && out.step, 'respond#1');
  const badName = runSync([respond({ headers: expr('{ "bad name" = ctx.request.query.x }') })], ctx({ query: { x: 'v' } }));
  assert.equal(badName.kind, 'failure');
});

test('an interim (1xx) status is refused at boot', () => {
  const result = compileEndpoint(pipeline([respond({ statusCode: 101 })]));
  assert.equal(result.endpoint, undefined);
  assert.match(result.diagnostics[0]!.summary, /Invalid respond status/);
});

test('without a written status, a problem() body sends its own status; a written status wins', () => {
  const omitted = runSync([respond({ statusCode: 200, statusOmitted: true, body: expr('problem(404, "No such user")') })]);
  assert.equal(omitted.kind === 'response' && omitted.status, 404);
  assert.equal(omitted.kind === 'response' && omitted.problem, true);
  const written = runSync([respond({ statusCode: 200, body: expr('problem(404, "No such user")') })]);
  assert.equal(written.kind === 'response' && written.status, 200);
  const plain = runSync([respond({ statusCode: 200, statusOmitted: true, body: expr('{ status = 404 }') })]);
  assert.equal(plain.kind === 'response' && plain.status, 200, 'only problem() bodies carry a status');
});
