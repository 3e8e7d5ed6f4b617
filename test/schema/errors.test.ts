import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ErrorObject } from 'ajv';
import { compileRequestValidator, reasonFor } from '../../src/schema/index.js';
import { BOOLEAN, INTEGER, NUMBER, STRING, field, list, map, object, request } from './specs.js';

/** Validates one body field `v` and returns the reasons given for it. */
function reasons(spec: ReturnType<typeof field>, value: unknown): string[] {
  const v = compileRequestValidator(request({ body: object([{ ...spec, name: 'v' }]) }));
  const r = v.validate({ path: {}, query: {}, headers: {}, body: value === undefined ? {} : { v: value } });
  return r.ok ? [] : r.invalidParams.map((p) => p.reason);
}

test('every reason text of DECISIONS.md §3, exactly', () => {
  const f = (type: Parameters<typeof field>[1], attrs: Parameters<typeof field>[2] = {}) => field('v', type, attrs);
  const table: [ReturnType<typeof field>, unknown, string][] = [
    [f(STRING, { required: true }), undefined, 'is required'],
    [f(STRING), 1, 'must be of type string'],
    [f(INTEGER), 'x', 'must be of type integer'],
    [f(INTEGER), 1.5, 'must be of type integer'],
    [f(NUMBER), '1', 'must be of type number'],
    [f(BOOLEAN), 'true', 'must be of type boolean'],
    [f(list(STRING)), {}, 'must be of type array'],
    [f(map(STRING)), [], 'must be of type object'],
    [f(object([])), 'x', 'must be of type object'],
    [f(STRING, { format: 'email' }), 'x', 'must be a valid email format'],
    [f(STRING, { format: 'date-time' }), 'x', 'must be a valid date-time format'],
    [f(STRING, { pattern: '^[0-9]{3}$' }), '12', 'must match pattern ^[0-9]{3}$'],
    [f(STRING, { enum: ['asc', 'desc'] }), 'up', 'must be one of: ["asc", "desc"]'],
    [f(STRING, { enum: ['say "hi"'] }), 'x', 'must be one of: ["say \\"hi\\""]'],
    [f(INTEGER, { enum: [10, 20, 50] }), 15, 'must be one of: [10, 20, 50]'],
    [f(NUMBER, { enum: [0.5, 1.5] }), 1, 'must be one of: [0.5, 1.5]'],
    [f(STRING, { minLength: 2 }), 'a', 'length must be at least 2 characters'],
    [f(STRING, { maxLength: 2 }), 'abc', 'length must be at most 2 characters'],
    [f(INTEGER, { min: 1 }), 0, 'must be greater than or equal to 1'],
    [f(NUMBER, { min: -0.5 }), -1, 'must be greater than or equal to -0.5'],
    [f(INTEGER, { max: 100 }), 101, 'must be less than or equal to 100'],
    [f(list(STRING), { minItems: 1 }), [], 'must contain at least 1 items'],
    [f(list(STRING), { maxItems: 2 }), ['a', 'b', 'c'], 'must contain at most 2 items'],
    [f(list(INTEGER), { uniqueItems: true }), [1, 2, 1], 'items must be unique'],
    [f(INTEGER), 2 ** 60, 'must be a safe integer'],
    [f(INTEGER), -(2 ** 60), 'must be a safe integer'],
  ];
  for (const [spec, value, reason] of table) assert.deepEqual(reasons(spec, value), [reason], `${JSON.stringify(spec)} ${JSON.stringify(value)}`);
});

test('lengths count characters (code points), not UTF-16 units', () => {
  assert.deepEqual(reasons(field('v', STRING, { maxLength: 2 }), '😀😀'), []);
  assert.deepEqual(reasons(field('v', STRING, { minLength: 3 }), 'éé'), ['length must be at least 3 characters']);
});

test('patterns are unanchored JSON Schema (ECMA-262, unicode) regular expressions', () => {
  assert.deepEqual(reasons(field('v', STRING, { pattern: '[0-9]' }), 'abc1'), []);
  assert.deepEqual(reasons(field('v', STRING, { pattern: '^\\p{Lu}' }), 'Émile'), []);
});

test('a mistyped value is not also reported as outside its enum', () => {
  assert.deepEqual(reasons(field('v', STRING, { enum: ['a'] }), 5), ['must be of type string']);
});

test('several failures of one value are all listed (in ajv keyword order: lengths, pattern, format)', () => {
  assert.deepEqual(reasons(field('v', STRING, { minLength: 5, pattern: '^[a-z]+$', format: 'email' }), 'A!'), [
    'length must be at least 5 characters',
    'must match pattern ^[a-z]+$',
    'must be a valid email format',
  ]);
});

test('names with JSON-pointer characters come back unescaped', () => {
  const spec = request({ body: object([field('a/b', STRING, { required: true }), field('m', map(INTEGER))]) });
  const r = compileRequestValidator(spec).validate({ path: {}, query: {}, headers: {}, body: { 'a/b': 1, m: { 'x~y': 'z' } } });
  assert.ok(!r.ok);
  assert.deepEqual(
    r.invalidParams.map((p) => p.name),
    ['a/b', 'm.x~y'],
  );
});

test('reasonFor keeps ajv words for keywords the schemas never use', () => {
  const error = { keyword: 'multipleOf', instancePath: '', schemaPath: '', params: { multipleOf: 2 }, message: 'must be multiple of 2' } as ErrorObject;
  assert.equal(reasonFor(error), 'must be multiple of 2');
});
