import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SchemaError, checkObjectType, checkRequestSpec, compileRequestValidator, toValidatorSchema } from '../../src/schema/index.js';
import type { Range } from '../../src/diag/range.js';
import { ACCOUNTS, ANY, BOOLEAN, INTEGER, NUMBER, SEARCH, STRING, TRANSFORM, USERS_POST, USER_CREATE, field, list, map, object, request } from './specs.js';
import { cpuTimer } from '../cpu-time.js';

const messages = (spec: Parameters<typeof checkRequestSpec>[0]) => checkRequestSpec(spec).map((i) => `${i.field}: ${i.message}`);

test('the reference specs have no issues', () => {
  for (const spec of [SEARCH, USERS_POST, ACCOUNTS, TRANSFORM]) assert.deepEqual(checkRequestSpec(spec), []);
  assert.deepEqual(checkObjectType(USER_CREATE), []);
});

test('attributes on types they do not apply to', () => {
  assert.deepEqual(
    messages(
      request({
        body: object([
          field('a', INTEGER, { minLength: 1, pattern: 'x', format: 'email' }),
          field('b', STRING, { min: 1, minItems: 1 }),
          field('c', BOOLEAN, { enum: ['x'] }),
          field('d', map(STRING), { uniqueItems: true }),
          field('e', list(NUMBER), { maxLength: 3 }),
        ]),
      }),
    ),
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
    messages(
      request({
        query: [
          field('a', STRING, { format: 'phone' }),
          field('b', STRING, { pattern: '([a-z' }),
          field('c', INTEGER, { enum: [1, 'two', 2.5] }),
          field('d', INTEGER, { min: 5, max: 1 }),
          field('e', STRING, { minLength: -1 }),
        ],
      }),
    ).map((m) => m.replace(/(regular expression): .*$/, '$1: <engine message>')),
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
    messages(
      request({
        query: [
          field('limit', INTEGER, { default: 500, max: 100 }),
          field('sort', STRING, { default: 'up', enum: ['asc'] }),
          field('ok', STRING, { default: null }),
        ],
        body: object([field('tags', list(STRING), { default: 'x' }), field('when', STRING, { format: 'date', default: '2023-02-29' })]),
      }),
    ),
    [
      "query.limit: the default 500 does not satisfy the field's own constraints: must be less than or equal to 100",
      'query.sort: the default "up" does not satisfy the field\'s own constraints: must be one of: ["asc"]',
      'body.tags: the default "x" does not satisfy the field\'s own constraints: must be of type array',
      'body.when: the default "2023-02-29" does not satisfy the field\'s own constraints: must be a valid date format',
    ],
  );
});

test('an invalid default names the failed constraints with the 422 reasons, parts of it by their place', () => {
  const address = object([field('city', STRING, { required: true }), field('zip', STRING, { pattern: '^[0-9]{5}$' })], 'address');
  assert.deepEqual(
    messages(
      request({
        // biome-ignore lint/correctness/noPrecisionLoss: the case is a default past 2^53, which loses precision
        query: [field('ids', list(INTEGER), { default: [1, 500, 9007199254740993], max: 10 })],
        body: object([field('home', address, { default: { zip: 'x' } }), field('many', list(INTEGER), { default: [11, 12, 13, 14, 15], max: 10 })]),
      }),
    ),
    [
      "query.ids: the default [1,500,9007199254740992] does not satisfy the field's own constraints: [1] must be less than or equal to 10; [2] must be less than or equal to 10",
      'body.home: the default {"zip":"x"} does not satisfy the field\'s own constraints: city is required; zip must match pattern ^[0-9]{5}$',
      "body.many: the default [11,12,13,14,15] does not satisfy the field's own constraints: [0] must be less than or equal to 10; [1] must be less than or equal to 10; [2] must be less than or equal to 10; and 2 more",
    ],
  );
  // biome-ignore lint/correctness/noPrecisionLoss: the case is a default past 2^53, which loses precision
  assert.deepEqual(messages(request({ query: [field('n', INTEGER, { default: 9007199254740993 })] })), [
    "query.n: the default 9007199254740992 does not satisfy the field's own constraints: must be a safe integer",
  ]);
});

test('integer enum values must be safe integers, as the validator and the decoder require', () => {
  assert.deepEqual(messages(request({ query: [field('a', INTEGER, { enum: [1, 9007199254740991, -9007199254740991] })] })), []);
  assert.deepEqual(messages(request({ query: [field('a', INTEGER, { enum: [1, 2 ** 53, -(2 ** 60)] })] })), [
    'query.a: enum value 9007199254740992 is not a safe integer (within ±(2^53-1))',
    'query.a: enum value -1152921504606847000 is not a safe integer (within ±(2^53-1))',
  ]);
  // A number field takes them: its values are not bounded to the safe range.
  assert.deepEqual(messages(request({ query: [field('a', NUMBER, { enum: [2 ** 53] })] })), []);
});

test('every issue names the attribute at fault, its severity, and whether the attribute applies at all', () => {
  const issues = checkRequestSpec(
    request({
      path: [field('p', list(STRING))],
      query: [
        field('a', STRING, { min: 1, enum: [1], format: 'phone', pattern: '(', minLength: 3, maxLength: 1, default: 'x' }),
        field('b', INTEGER, { minItems: -1, default: 'x' }),
        field('c', STRING, { pattern: '^(?=a)a$' }),
      ],
      body: object([field('toString', STRING), field('d', STRING), field('d', STRING)]),
    }),
  );
  assert.deepEqual(
    issues.map((i) => [i.field, i.attribute, i.severity, i.inapplicable ?? false]),
    [
      ['path.p', 'type', 'error', false],
      ['query.a', 'enum', 'error', false],
      ['query.a', 'format', 'error', false],
      ['query.a', 'pattern', 'error', false],
      ['query.a', 'min', 'error', true],
      ['query.a', 'min_length', 'error', false],
      ['query.b', 'min_items', 'error', true],
      ['query.b', 'min_items', 'error', false],
      // b's default is not compiled: the field has an error already.
      ['query.c', 'pattern', 'error', false],
      ['body.toString', undefined, 'error', false],
      ['body.d', undefined, 'error', false],
    ],
  );
  // A default that is wrong on its own is about `default`.
  assert.deepEqual(
    checkRequestSpec(request({ query: [field('x', INTEGER, { default: 'x' })] })).map((i) => i.attribute),
    ['default'],
  );
});

test('a pattern runs in linear time: nested quantifiers need no warning, one RE2 cannot run is an error', () => {
  const spec = request({ query: [field('q', STRING, { pattern: '^(a|aa)+$' })] });
  assert.deepEqual(checkRequestSpec(spec), []);
  const v = compileRequestValidator(spec);
  assert.equal(v.validate({ path: {}, query: { q: 'aaa' }, headers: {}, body: undefined }).ok, true);
  assert.equal(v.validate({ path: {}, query: { q: `${'a'.repeat(10_000)}!` }, headers: {}, body: undefined }).ok, false);
  const lookahead = request({ query: [field('q', STRING, { pattern: '^(?=a)a$' })] });
  assert.deepEqual(messages(lookahead), [
    'query.q: `pattern` is not a valid regular expression: a lookahead assertion `(?=` cannot be matched in linear time ' +
      '(svc matches every regular expression of a manifest in time linear in the input (RE2), which rules out lookaround and back-references)',
  ]);
  assert.throws(() => compileRequestValidator(lookahead), SchemaError);
});

test('text coordinates take scalars (and lists of scalars outside the path)', () => {
  assert.deepEqual(
    messages(
      request({
        path: [field('ids', list(INTEGER))],
        query: [field('filter', map(STRING)), field('deep', list(list(STRING))), field('ok', list(BOOLEAN)), field('any', ANY)],
        headers: [field('x-obj', object([]))],
      }),
    ),
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
    messages(
      request({
        headers: [field('X-Key', STRING), field('x-key', STRING)],
        body: object([field('a', STRING), field('a', STRING), field('constructor', STRING), field('__proto__', STRING), field('toString', ANY)]),
      }),
    ),
    [
      'header.x-key: header parameter "x-key" is declared twice',
      'body.a: field "a" is declared twice',
      'body.constructor: "constructor" cannot be a field name: every JavaScript object already has it',
      'body.__proto__: "__proto__" cannot be a field name: every JavaScript object already has it',
      'body.toString: "toString" cannot be a field name: every JavaScript object already has it',
    ],
  );
});

test('nested schemas are checked, issues carry the field range and are named by the schema, once', () => {
  const range: Range = { filename: 'schemas.hcl', start: { line: 3, column: 3, byte: 20 }, end: { line: 5, column: 4, byte: 60 } };
  const inner = object([field('zip', STRING, { min: 1, range })], 'address');
  const issues = checkRequestSpec(request({ body: object([field('home', inner), field('past', list(inner))]) }));
  assert.deepEqual(issues, [
    {
      field: 'schema address.zip',
      message: '`min` applies to integer and number fields, not to string',
      severity: 'error',
      attribute: 'min',
      inapplicable: true,
      range,
    },
  ]);
  assert.deepEqual(
    checkObjectType(inner).map((i) => i.field),
    ['schema address.zip'],
  );
  // An inline body's fields keep their path; so does a named schema checked as the body itself.
  assert.deepEqual(
    checkRequestSpec(request({ body: inner })).map((i) => i.field),
    ['body.zip'],
  );
  // A default that holds an object with issues is not compiled (it would only fail for that reason).
  const holder = object([field('home', inner, { default: { zip: 'x' } })], 'holder');
  assert.deepEqual(
    checkObjectType(holder).map((i) => i.field),
    ['schema address.zip'],
  );
});

/** s0 .. s{depth}: each schema has two optional fields, f0 and f1, of the next one (2^depth paths). */
function diamond(depth: number, leaf: ReturnType<typeof field>[] = [field('x', STRING)]) {
  let next = object(leaf, `s${depth}`);
  for (let i = depth - 1; i >= 0; i--) next = object([field('f0', next), field('f1', next)], `s${i}`);
  return next;
}

test('a schema shared along many paths is checked once per object, not once per path', () => {
  const range: Range = { filename: 'schemas.hcl', start: { line: 1, column: 1, byte: 0 }, end: { line: 1, column: 2, byte: 1 } };
  const root = diamond(40, [field('x', STRING, { min: 1, range }), field('d', STRING, { default: 'ok', pattern: '^o' })]);
  const cpuMs = cpuTimer();
  // 2^40 paths: without memoisation this never finishes.
  assert.deepEqual(
    checkObjectType(root).map((i) => i.field),
    ['schema s40.x'],
  );
  assert.deepEqual(
    checkRequestSpec(request({ body: root })).map((i) => i.field),
    ['schema s40.x'],
  );
  assert.ok(cpuMs() < 2000);
});

test('a diamond of shared schemas compiles to a small validator schema and validates every path', () => {
  const leaf = () => [field('x', INTEGER, { max: 5 }), field('d', STRING, { default: 'dflt' })];
  // 2^18 paths made a 25 MB JSON Schema when every named schema was inlined.
  assert.ok(JSON.stringify(toValidatorSchema(diamond(18, leaf()))).length < 5_000);
  assert.ok(JSON.stringify(toValidatorSchema(diamond(40, leaf()))).length < 10_000);
  const v = compileRequestValidator(request({ body: diamond(3, leaf()) }));
  const bad = v.validate({ path: {}, query: {}, headers: {}, body: { f0: { f1: { f0: { x: 1 } } }, f1: { f0: { f1: { x: 9 } } } } });
  assert.deepEqual(bad.ok ? [] : bad.invalidParams, [{ name: 'f1.f0.f1.x', reason: 'must be less than or equal to 5', in: 'body' }]);
  const body = { f0: { f1: { f0: { x: 1 } } }, f1: { f0: { f1: {} } } };
  const good = v.validate({ path: {}, query: {}, headers: {}, body });
  assert.equal(good.ok, true);
  // Defaults are injected inside every referenced definition.
  assert.deepEqual(body, { f0: { f1: { f0: { x: 1, d: 'dflt' } } }, f1: { f0: { f1: { d: 'dflt' } } } });
});

test('compileRequestValidator refuses a spec with issues, listing them all', () => {
  const spec = request({ query: [field('a', STRING, { format: 'phone' })], body: object([field('b', INTEGER, { pattern: 'x' })]) });
  assert.throws(
    () => compileRequestValidator(spec),
    (e: unknown) => {
      assert.ok(e instanceof SchemaError);
      assert.equal(e.issues.length, 2);
      assert.match(e.message, /query\.a: unknown format "phone"/);
      assert.match(e.message, /body\.b: `pattern` applies to string fields/);
      return true;
    },
  );
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
  assert.deepEqual(
    checkObjectType(node).map((i) => `${i.field}: ${i.message}`),
    ['schema node.first: the default never ends: completing it with the defaults of its schema leads back to the same schema'],
  );
  // So is a list default whose elements get the same list as default.
  const leafFields: ReturnType<typeof field>[] = [field('label', STRING)];
  const leaf = object(leafFields, 'leaf');
  leafFields.push(field('children', list(leaf), { default: [{ label: 'x' }] }));
  assert.deepEqual(
    checkObjectType(leaf).map((i) => i.field),
    ['schema leaf.children'],
  );
});
