import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Diagnostics } from '../../src/diag/index.js';
import { parseRouteLabel } from '../../src/manifest/route-label.js';
import { DecodeScope } from '../../src/manifest/scope.js';

const range = { filename: 'x.hcl', start: { line: 1, column: 1, byte: 0 }, end: { line: 1, column: 2, byte: 1 } };

function parse(label: string) {
  const diags = new Diagnostics();
  const r = parseRouteLabel(label, range, new DecodeScope(diags, [], 'x.hcl', '.'));
  return { r, summaries: diags.items.map((d) => d.summary) };
}

test('params, catch-all and the shape that ignores parameter names', () => {
  const { r, summaries } = parse('get /users/{id}/files/{rest...}');
  assert.deepEqual(summaries, []);
  assert.equal(r!.method, 'GET');
  assert.deepEqual(r!.pathParams, ['id', 'rest']);
  assert.equal(r!.catchAll, 'rest');
  assert.deepEqual(r!.segments, [
    { kind: 'literal', value: 'users' },
    { kind: 'param', name: 'id' },
    { kind: 'literal', value: 'files' },
    { kind: 'catchAll', name: 'rest' },
  ]);
  assert.equal(r!.shape, 'GET /users/{}/files/{...}');
  assert.equal(parse('GET /users/{other}/files/{x...}').r!.shape, r!.shape);
});

test('root path and trailing slash', () => {
  assert.equal(parse('GET /').r!.shape, 'GET /');
  assert.notEqual(parse('GET /a/').r!.shape, parse('GET /a').r!.shape);
});

test('bad labels', () => {
  assert.deepEqual(parse('FETCH /x').summaries, ['Invalid HTTP method']);
  assert.deepEqual(parse('GET').summaries, ['Invalid route label']);
  assert.deepEqual(parse('GET users').summaries, ['Invalid path']);
  assert.deepEqual(parse('GET /a//b').summaries, ['Invalid path']);
  assert.deepEqual(parse('GET /{rest...}/x').summaries, ['Invalid path']);
  assert.deepEqual(parse('GET /f/{name}.json').summaries, ['Invalid path parameter']);
  assert.deepEqual(parse('GET /{a}/{a}').summaries, ['Duplicate path parameter']);
  assert.deepEqual(parse('GET /a b').summaries, ['Invalid route label']);
});
