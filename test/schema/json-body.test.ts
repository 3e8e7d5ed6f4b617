import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FORBIDDEN_PROPERTY_MESSAGE, invalidJsonProblem, isJsonContentType, parseJsonBody, validationProblem } from '../../src/schema/index.js';
import { isMarkedProblem } from '../../src/problem/index.js';
import { cpuTimer } from '../cpu-time.js';

test('valid JSON of every shape parses', () => {
  assert.deepEqual(parseJsonBody('{"a":[1,{"b":null}],"c":"x"}'), { ok: true, value: { a: [1, { b: null }], c: 'x' } });
  assert.deepEqual(parseJsonBody('[1,2]'), { ok: true, value: [1, 2] });
  assert.deepEqual(parseJsonBody(' "s" '), { ok: true, value: 's' });
  assert.deepEqual(parseJsonBody('null'), { ok: true, value: null });
  assert.deepEqual(parseJsonBody('\ufeff{"bom":true}'), { ok: true, value: { bom: true } });
});

test('malformed JSON gives the parser message', () => {
  for (const text of ['{"a":', '{a:1}', "{'a':1}", '', '{"a":1,}', 'NaN', '{"a":1}x']) {
    const r = parseJsonBody(text);
    assert.equal(r.ok, false, text);
    if (!r.ok) {
      assert.ok(r.message.length > 0);
      // The V8 message, unchanged: it names the problem and the position.
      assert.equal(r.message, captureParseError(text), text);
    }
  }
});

function captureParseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  return '';
}

test('__proto__ keys are refused at any depth, including escaped spellings', () => {
  for (const text of [
    '{"__proto__":{"polluted":true}}',
    '{"a":{"b":[{"__proto__":{"polluted":true}}]}}',
    '{"\\u005f\\u005fproto__":{"polluted":true}}',
    '{"__proto__" : null}',
  ]) {
    assert.deepEqual(parseJsonBody(text), { ok: false, message: FORBIDDEN_PROPERTY_MESSAGE }, text);
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('constructor.prototype is refused; other constructor values are data', () => {
  assert.deepEqual(parseJsonBody('{"constructor":{"prototype":{"polluted":true}}}'), { ok: false, message: FORBIDDEN_PROPERTY_MESSAGE });
  assert.deepEqual(parseJsonBody('[{"x":{"constructor":{"prototype":{}}}}]'), { ok: false, message: FORBIDDEN_PROPERTY_MESSAGE });
  assert.deepEqual(parseJsonBody('{"constructor":"Ford"}'), { ok: true, value: { constructor: 'Ford' } });
  assert.deepEqual(parseJsonBody('{"constructor":{"name":"x"}}'), { ok: true, value: { constructor: { name: 'x' } } });
  // The words inside string values are data too.
  assert.deepEqual(parseJsonBody('{"note":"\\"__proto__\\": is a key"}'), { ok: true, value: { note: '"__proto__": is a key' } });
});

test('after a refused body, a merge of the accepted ones cannot reach Object.prototype', () => {
  const r = parseJsonBody('{"a":1}');
  assert.ok(r.ok);
  const merged = Object.assign({}, r.value);
  assert.equal(Object.getPrototypeOf(merged), Object.prototype);
});

test('nesting depth is bounded: the limit itself passes, one more is refused before parsing', () => {
  const nested = (d: number, open = '[', close = ']') => open.repeat(d) + close.repeat(d);
  assert.equal(parseJsonBody(nested(64)).ok, true);
  assert.deepEqual(parseJsonBody(nested(65)), { ok: false, message: 'nesting depth exceeds the limit of 64' });
  assert.deepEqual(parseJsonBody(nested(5), 4), { ok: false, message: 'nesting depth exceeds the limit of 4' });
  assert.equal(parseJsonBody(nested(4), 4).ok, true);
  const objects = (d: number): string => (d === 0 ? '1' : `{"k":${objects(d - 1)}}`);
  assert.equal(parseJsonBody(objects(64)).ok, true);
  assert.equal(parseJsonBody(objects(65)).ok, false);
  // Brackets inside strings (with escaped quotes) do not count.
  const brackets = JSON.stringify({ s: '[[[[{{{{\\"'.repeat(40) });
  assert.equal(parseJsonBody(brackets, 2).ok, true);
  // A hostile body of a million brackets is refused quickly, not parsed.
  const cpuMs = cpuTimer();
  assert.equal(parseJsonBody('['.repeat(1_000_000)).ok, false);
  assert.ok(cpuMs() < 200);
  // Siblings do not add up: depth is nesting, not count.
  assert.equal(parseJsonBody(JSON.stringify(Array.from({ length: 500 }, () => [[{ a: [1] }]])), 5).ok, true);
});

test('isJsonContentType: application/json and +json suffixes, with parameters; absent counts as JSON', () => {
  for (const h of [
    undefined,
    '',
    'application/json',
    'Application/JSON',
    'application/json; charset=utf-8',
    'application/problem+json',
    'application/vnd.api+json;charset=UTF-8',
    ' application/json ',
    'application/merge-patch+json',
  ]) {
    assert.equal(isJsonContentType(h), true, String(h));
  }
  for (const h of [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'text/json',
    'application/jsonx',
    'application/+json',
    'application/json-seq',
    'application/xml',
    'json',
  ]) {
    assert.equal(isJsonContentType(h), false, h);
  }
});

test('validationProblem builds the 422 of SPEC.md §7, marked as a problem', () => {
  const params = [{ name: 'email', reason: 'must be a valid email format', in: 'body' as const }];
  const p = validationProblem(params, '/api/v1/users');
  assert.equal(
    JSON.stringify(p),
    JSON.stringify({
      type: 'urn:svc:error:validation-error',
      title: 'Unprocessable Entity',
      status: 422,
      detail: 'Request payload failed schema validation constraints',
      instance: '/api/v1/users',
      invalid_params: params,
    }),
  );
  assert.equal(isMarkedProblem(p), true);
});

test('invalidJsonProblem builds the 400 of SPEC.md §7', () => {
  const r = parseJsonBody('{"a":');
  assert.ok(!r.ok);
  const p = invalidJsonProblem(r.message, '/api/v1/users');
  assert.deepEqual(
    { ...p },
    {
      type: 'urn:svc:error:bad-request',
      title: 'Invalid Request Payload',
      status: 400,
      detail: `invalid JSON payload: ${r.message}`,
      instance: '/api/v1/users',
    },
  );
  assert.equal(isMarkedProblem(p), true);
});
