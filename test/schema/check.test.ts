import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SchemaError, checkObjectType, checkRequestSpec, compileRequestValidator } from '../../src/schema/index.js';
import type { Range } from '../../src/diag/range.js';
import { ACCOUNTS, ANY, BOOLEAN, INTEGER, NUMBER, SEARCH, STRING, TRANSFORM, USERS_POST, USER_CREATE, field, list, map, object, request } from './specs.js';

const messages = (spec: Parameters<typeof checkRequestSpec>[0]) => checkRequestSpec(spec).map((i) => `${i.field}: ${i.message}`);

test('the reference specs have no issues', () => {
  for (const spec of [SEARCH, USERS_POST, ACCOUNTS, TRANSFORM]) assert.deepEqual(checkRequestSpec(spec), []);
  assert.deepEqual(checkObjectType(USER_CREATE), []);
});

test('attributes on types they do not apply to', () => {
  assert.deepEqual(
    messages(request({
      body: object([
        field('a', INTEGER, { minLength: 1, pattern: 'x', format: 'email' }),
        field('b', STRING, { min: 1, minItems: 1 }),
        field('c', BOOLEAN, { enum: ['x'] }),
        field('d', map(STRING), { uniqueItems: true }),
        field('e', list(NUMBER), { maxLength: 3 }),
      ]),
    })),
    [
      'body.a: `format` applies to string fields, not to integer',
      'body.a: `pattern` applies to string fields, not to integer',
      'body.a: `min_length` applies to string fields, not to integer',
      'body.b: `min` applies to integer and number fields, not to string',
      'body.b: `min_items` applies to list fields, not to string',
      'body.c: `enum` applies to string, integer and number fields, not to boolean',
      'body.d: `unique_items` applies to list fields, not to map(string)',
      'body.e: `max_length` applies to string fields, not to list(number)',
    ],
  );
});

test('unknown formats, bad patterns, enum values of the wrong type, inverted bounds', () => {
  assert.deepEqual(
    messages(request({
      query: [
        field('a', STRING, { format: 'phone' }),
        field('b', STRING, { pattern: '([a-z' }),
        field('c', INTEGER, { enum: [1, 'two', 2.5] }),
        field('d', INTEGER, { min: 5, max: 1 }),
        field('e', STRING, { minLength: -1 }),
      ],
    })).map((m) => m.replace(/: Invalid regular expression.*$/, ': <engine message>')),
    [
      'query.a: unknown format "phone"; the formats are email, uuid, uri, date-time, date, ipv4, ipv6, hostname',
      'query.b: `pattern` is not a valid regular expression: <engine message>',
      'query.c: enum value "two" is not of type integer',
      'query.c: enum value 2.5 is not of type integer',
      'query.d: `min` (5) is greater than `max` (1)',
      'query.e: `min_length` must be a whole number >= 0',
    ],
  );
});

test('defaults must satisfy the field they belong to', () => {
  assert.deepEqual(
    messages(request({
      query: [field('limit', INTEGER, { default: 500, max: 100 }), field('sort', STRING, { default: 'up', enum: ['asc'] }), field('ok', STRING, { default: null })],
      body: object([field('tags', list(STRING), { default: 'x' }), field('when', STRING, { format: 'date', default: '2023-02-29' })]),
    })),
    [
      'query.limit: the default 500 does not satisfy the field\'s own constraints',
      'query.sort: the default "up" does not satisfy the field\'s own constraints',
      'body.tags: the default "x" does not satisfy the field\'s own constraints',
      'body.when: the default "2023-02-29" does not satisfy the field\'s own constraints',
    ],
  );
});

test('text coordinates take scalars (and lists of scalars outside the path)', () => {
  assert.deepEqual(
    messages(request({
      path: [field('ids', list(INTEGER))],
      query: [field('filter', map(STRING)), field('deep', list(list(STRING))), field('ok', list(BOOLEAN)), field('any', ANY)],
      headers: [field('x-obj', object([]))],
    })),
    [
      'path.ids: a path parameter arrives as text and must be a scalar, not list(integer)',
      'query.filter: a query parameter arrives as text and must be a scalar or a list of scalars, not map(string)',
      'query.deep: a query parameter arrives as text and must be a scalar or a list of scalars, not list(list(string))',
      'header.x-obj: a header parameter arrives as text and must be a scalar or a list of scalars, not object',
    ],
  );
});

test('duplicate names (headers case-insensitively) and reserved names', () => {
  assert.deepEqual(
    messages(request({
      headers: [field('X-Key', STRING), field('x-key', STRING)],
      body: object([field('a', STRING), field('a', STRING), field('constructor', STRING), field('__proto__', STRING), field('toString', ANY)]),
    })),
    [
      'header.x-key: header parameter "x-key" is declared twice',
      'body.a: field "a" is declared twice',
      'body.constructor: "constructor" cannot be a field name: every JavaScript object already has it',
      'body.__proto__: "__proto__" cannot be a field name: every JavaScript object already has it',
      'body.toString: "toString" cannot be a field name: every JavaScript object already has it',
    ],
  );
});

test('nested schemas are checked, issues carry the field range', () => {
  const range: Range = { filename: 'schemas.hcl', start: { line: 3, column: 3, byte: 20 }, end: { line: 5, column: 4, byte: 60 } };
  const inner = object([field('zip', STRING, { min: 1, range })], 'address');
  const issues = checkRequestSpec(request({ body: object([field('home', inner), field('past', list(inner))]) }));
  assert.deepEqual(issues, [
    { field: 'body.home.zip', message: '`min` applies to integer and number fields, not to string', range },
    { field: 'body.past.zip', message: '`min` applies to integer and number fields, not to string', range },
  ]);
  assert.deepEqual(checkObjectType(inner).map((i) => i.field), ['schema address.zip']);
});

test('compileRequestValidator refuses a spec with issues, listing them all', () => {
  const spec = request({ query: [field('a', STRING, { format: 'phone' })], body: object([field('b', INTEGER, { pattern: 'x' })]) });
  assert.throws(() => compileRequestValidator(spec), (e: unknown) => {
    assert.ok(e instanceof SchemaError);
    assert.equal(e.issues.length, 2);
    assert.match(e.message, /query\.a: unknown format "phone"/);
    assert.match(e.message, /body\.b: `pattern` applies to string fields/);
    return true;
  });
});

test('a default on a field of a recursive schema is checked too', () => {
  const fields: ReturnType<typeof field>[] = [field('label', STRING)];
  const node = object(fields, 'node');
  fields.push(field('children', list(node), { default: [] }));
  assert.deepEqual(checkObjectType(node), []);
  fields.push(field('parent', node, { default: null }));
  assert.deepEqual(checkObjectType(node), []);
  // A defaulted field that leads back to its own schema: every value would grow forever.
  fields.push(field('first', node, { default: { label: 'x' } }));
  assert.deepEqual(checkObjectType(node).map((i) => `${i.field}: ${i.message}`), [
    'schema node.first: the default never ends: completing it with the defaults of its schema leads back to the same schema',
  ]);
  // So is a list default whose elements get the same list as default.
  const leafFields: ReturnType<typeof field>[] = [field('label', STRING)];
  const leaf = object(leafFields, 'leaf');
  leafFields.push(field('children', list(leaf), { default: [{ label: 'x' }] }));
  assert.deepEqual(checkObjectType(leaf).map((i) => i.field), ['schema leaf.children']);
});
