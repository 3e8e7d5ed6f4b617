import { test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, problemType, markProblem, isMarkedProblem } from '../../src/problem/index.js';

test('problem types follow the reason phrase in kebab case, with the decided overrides', () => {
  assert.equal(problemType(404), 'urn:svc:error:not-found');
  assert.equal(problemType(405), 'urn:svc:error:method-not-allowed');
  assert.equal(problemType(413), 'urn:svc:error:payload-too-large');
  assert.equal(problemType(415), 'urn:svc:error:unsupported-media-type');
  assert.equal(problemType(400), 'urn:svc:error:bad-request');
  assert.equal(problemType(422), 'urn:svc:error:validation-error');
  assert.equal(problemType(500), 'urn:svc:error:internal');
  assert.equal(problemType(503), 'urn:svc:error:dependency-unavailable');
  assert.equal(problemType(504), 'urn:svc:error:timeout');
  assert.equal(problemType(409), 'urn:svc:error:conflict');
});

test('problem() fills the title from the status when none is given, and marks survive JSON', () => {
  assert.deepEqual(problem(404, 'User not found', undefined, '/u/1'), {
    type: 'urn:svc:error:not-found',
    title: 'User not found',
    status: 404,
    instance: '/u/1',
  });
  assert.equal(problem(401).title, 'Unauthorized');
  const p = markProblem(problem(404));
  assert.equal(isMarkedProblem(p), true);
  assert.equal(isMarkedProblem({ ...p }), false);
  assert.equal(JSON.stringify(p), '{"type":"urn:svc:error:not-found","title":"Not Found","status":404}');
});
