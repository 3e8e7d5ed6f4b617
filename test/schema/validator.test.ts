import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRequestValidator, type RequestInput, type ValidationResult } from '../../src/schema/index.js';
import type { RequestSpec } from '../../src/schema/field.js';
import { ACCOUNTS, ANY, BOOLEAN, INTEGER, KEY, NUMBER, SEARCH, STRING, TRANSFORM, USERS_POST, field, list, map, object, request } from './specs.js';
import { cpuTimer } from '../cpu-time.js';

const input = (parts: Partial<RequestInput>): RequestInput => ({ path: {}, query: {}, headers: {}, body: undefined, ...parts });

function ok(result: ValidationResult) {
  if (!result.ok) assert.fail(`expected ok, got ${JSON.stringify(result.invalidParams)}`);
  return result.value;
}
function fail(result: ValidationResult) {
  if (result.ok) assert.fail(`expected failure, got ${JSON.stringify(result.value)}`);
  return result.invalidParams;
}
const run = (spec: RequestSpec, parts: Partial<RequestInput>) => compileRequestValidator(spec).validate(input(parts));

test('search: defaults are injected and limit is coerced to a number', () => {
  const v = compileRequestValidator(SEARCH);
  const value = ok(v.validate(input({ query: { q: 'hello' }, headers: { 'x-api-key': KEY } })));
  assert.deepEqual(value.query, { q: 'hello', limit: 20, sort: 'desc' });
  assert.deepEqual(value.headers, { 'x-api-key': KEY });
  const typed = ok(v.validate(input({ query: { q: 'hello', limit: '50', sort: 'asc' }, headers: { 'x-api-key': KEY } })));
  assert.deepEqual(typed.query, { q: 'hello', limit: 50, sort: 'asc' });
  assert.equal(typeof typed.query.limit, 'number');
});

test('search: every failed constraint of every coordinate at once, path-query-header-body order', () => {
  const params = fail(run(SEARCH, { query: { q: 'h', limit: '0', sort: 'up' }, headers: { 'x-api-key': 'not-a-uuid' } }));
  assert.deepEqual(params, [
    { name: 'q', reason: 'length must be at least 2 characters', in: 'query' },
    { name: 'limit', reason: 'must be greater than or equal to 1', in: 'query' },
    { name: 'sort', reason: 'must be one of: ["asc", "desc"]', in: 'query' },
    { name: 'x-api-key', reason: 'must be a valid uuid format', in: 'header' },
  ]);
  assert.deepEqual(fail(run(SEARCH, { query: { limit: '101' } })), [
    { name: 'q', reason: 'is required', in: 'query' },
    { name: 'limit', reason: 'must be less than or equal to 100', in: 'query' },
    { name: 'x-api-key', reason: 'is required', in: 'header' },
  ]);
});

test('search: a text that is not an integer literal gets the type reason, not a range reason', () => {
  for (const text of ['abc', '1.5', '', ' 12', '+3', '0x10', '1e2', '012']) {
    assert.deepEqual(
      fail(run(SEARCH, { query: { q: 'ok', limit: text }, headers: { 'x-api-key': KEY } })),
      [{ name: 'limit', reason: 'must be of type integer', in: 'query' }],
      text,
    );
  }
});

test('search: undeclared query parameters and headers pass through as text', () => {
  const value = ok(run(SEARCH, { query: { q: 'hello', page: '2' }, headers: { 'x-api-key': KEY, accept: '*/*' } }));
  assert.deepEqual(value.query, { q: 'hello', page: '2', limit: 20, sort: 'desc' });
  assert.deepEqual(value.headers, { 'x-api-key': KEY, accept: '*/*' });
});

test('a __proto__ query key is never copied onto the validated object', () => {
  const query = JSON.parse('{"q":"hello","__proto__":["x"]}') as Record<string, string>;
  const value = ok(run(SEARCH, { query, headers: { 'x-api-key': KEY } }));
  assert.equal(Object.getPrototypeOf(value.query), Object.prototype);
  assert.equal(Object.hasOwn(value.query, '__proto__'), false);
});

test('the incoming query object is not modified', () => {
  const query = { q: 'hello', limit: '5' };
  ok(run(SEARCH, { query, headers: { 'x-api-key': KEY } }));
  assert.deepEqual(query, { q: 'hello', limit: '5' });
});

test('accounts (route dialect): path id coerced, header declared in capitals matched, channel default, body', () => {
  const v = compileRequestValidator(ACCOUNTS);
  const value = ok(v.validate(input({ path: { id: '42' }, headers: { 'x-api-key': KEY }, body: { name: 'Ada' } })));
  assert.deepEqual(value.path, { id: 42 });
  assert.deepEqual(value.query, { channel: 'web' });
  assert.deepEqual(value.headers, { 'x-api-key': KEY });
  assert.deepEqual(value.body, { name: 'Ada' });
  assert.deepEqual(fail(v.validate(input({ path: { id: 'abc' }, query: { channel: 'fax' }, body: { name: 'A' } }))), [
    { name: 'id', reason: 'must be of type integer', in: 'path' },
    { name: 'channel', reason: 'must be one of: ["web", "mobile"]', in: 'query' },
    { name: 'x-api-key', reason: 'is required', in: 'header' },
    { name: 'name', reason: 'length must be at least 2 characters', in: 'body' },
  ]);
});

test('undeclared path parameters stay strings', () => {
  const value = ok(run(ACCOUNTS, { path: { id: '7', rest: 'a/b' }, headers: { 'x-api-key': KEY }, body: { name: 'Ada' } }));
  assert.deepEqual(value.path, { id: 7, rest: 'a/b' });
  const none = ok(run(request({}), { path: { sku: '0042' } }));
  assert.deepEqual(none.path, { sku: '0042' });
});

test('user_create: a valid body gets its default role; extra properties pass through', () => {
  const body = { email: 'ada@example.com', account_type: 'business', username: 'ada_l', age: 36, tags: ['a', 'b'], extra: 1 };
  const value = ok(run(USERS_POST, { body }));
  assert.deepEqual(value.body, { ...body, role: 'member' });
});

test('user_create: every violation listed in declaration order, with the spec texts', () => {
  const body = { email: 'not-an-email', account_type: 'team', username: 'a!', age: 12, tags: ['x', 'x'] };
  assert.deepEqual(fail(run(USERS_POST, { body })), [
    { name: 'email', reason: 'must be a valid email format', in: 'body' },
    { name: 'account_type', reason: 'must be one of: ["individual", "business"]', in: 'body' },
    { name: 'username', reason: 'length must be at least 3 characters', in: 'body' },
    { name: 'username', reason: 'must match pattern ^[a-zA-Z0-9_-]+$', in: 'body' },
    { name: 'age', reason: 'must be greater than or equal to 18', in: 'body' },
    { name: 'tags', reason: 'items must be unique', in: 'body' },
  ]);
  assert.deepEqual(fail(run(USERS_POST, { body: { username: 'x'.repeat(31), age: 121, tags: [] } })), [
    { name: 'email', reason: 'is required', in: 'body' },
    { name: 'account_type', reason: 'is required', in: 'body' },
    { name: 'username', reason: 'length must be at most 30 characters', in: 'body' },
    { name: 'age', reason: 'must be less than or equal to 120', in: 'body' },
    { name: 'tags', reason: 'must contain at least 1 items', in: 'body' },
  ]);
  const eleven = Array.from({ length: 11 }, (_, i) => `t${i}`);
  const params = fail(run(USERS_POST, { body: { email: 'a@b.co', account_type: 'individual', username: 'abc', tags: eleven } }));
  assert.deepEqual(params, [{ name: 'tags', reason: 'must contain at most 10 items', in: 'body' }]);
});

test('user_create: wrong JSON types are reported with the JSON type names', () => {
  const body = { email: 5, account_type: null, username: ['x'], age: 20.5, tags: 'x' };
  assert.deepEqual(fail(run(USERS_POST, { body })), [
    { name: 'email', reason: 'must be of type string', in: 'body' },
    { name: 'account_type', reason: 'must be of type string', in: 'body' },
    { name: 'username', reason: 'must be of type string', in: 'body' },
    { name: 'age', reason: 'must be of type integer', in: 'body' },
    { name: 'tags', reason: 'must be of type array', in: 'body' },
  ]);
});

test('a body that is not an object is one entry named body; an absent body is validated as {}', () => {
  assert.deepEqual(fail(run(USERS_POST, { body: [1, 2] })), [{ name: 'body', reason: 'must be of type object', in: 'body' }]);
  assert.deepEqual(fail(run(USERS_POST, { body: null })), [{ name: 'body', reason: 'must be of type object', in: 'body' }]);
  assert.deepEqual(
    fail(run(USERS_POST, {})).map((p) => p.name),
    ['email', 'account_type', 'username'],
  );
});

test('transform: both defaults injected when the body is absent or empty; given values kept', () => {
  assert.deepEqual(ok(run(TRANSFORM, {})).body, { prefix: 'item', tags: [] });
  assert.deepEqual(ok(run(TRANSFORM, { body: {} })).body, { prefix: 'item', tags: [] });
  assert.deepEqual(ok(run(TRANSFORM, { body: { tags: [' A '] } })).body, { prefix: 'item', tags: [' A '] });
  // Each request gets its own default array: a step that pushes into it cannot leak into the next.
  const v = compileRequestValidator(TRANSFORM);
  const first = ok(v.validate(input({ body: {} }))).body as { tags: string[] };
  first.tags.push('leak');
  assert.deepEqual((ok(v.validate(input({ body: {} }))).body as { tags: string[] }).tags, []);
});

test('nested objects: dotted names, indexes, defaults inside, declaration order', () => {
  const address = object(
    [field('street', STRING, { required: true }), field('city', STRING, { required: true, minLength: 2 }), field('country', STRING, { default: 'NL' })],
    'address',
  );
  const spec = request({
    body: object([
      field('name', STRING, { required: true }),
      field('address', address, { required: true }),
      field('items', list(object([field('sku', STRING, { required: true }), field('qty', INTEGER, { min: 1, default: 1 })]))),
      field('tags', list(STRING), { maxLength: 3 }),
    ]),
  });
  const good = ok(run(spec, { body: { name: 'n', address: { street: 's', city: 'Delft' }, items: [{ sku: 'a' }, { sku: 'b', qty: 2 }] } }));
  assert.deepEqual(good.body, {
    name: 'n',
    address: { street: 's', city: 'Delft', country: 'NL' },
    items: [
      { sku: 'a', qty: 1 },
      { sku: 'b', qty: 2 },
    ],
  });
  const params = fail(run(spec, { body: { tags: ['ok', 'toolong', 'x', 'long'], items: [{ qty: 1 }, { sku: 'b', qty: 0 }], address: { city: 'D' } } }));
  assert.deepEqual(params, [
    { name: 'name', reason: 'is required', in: 'body' },
    { name: 'address.street', reason: 'is required', in: 'body' },
    { name: 'address.city', reason: 'length must be at least 2 characters', in: 'body' },
    { name: 'items[0].sku', reason: 'is required', in: 'body' },
    { name: 'items[1].qty', reason: 'must be greater than or equal to 1', in: 'body' },
    { name: 'tags[1]', reason: 'length must be at most 3 characters', in: 'body' },
    { name: 'tags[3]', reason: 'length must be at most 3 characters', in: 'body' },
  ]);
});

test('list(map(string)) and map(list(integer)) check element and value types', () => {
  const spec = request({
    body: object([field('rows', list(map(STRING))), field('scores', map(list(INTEGER)), { min: 0 })]),
  });
  ok(run(spec, { body: { rows: [{ a: 'x' }, {}], scores: { ann: [1, 2], bob: [] } } }));
  assert.deepEqual(fail(run(spec, { body: { rows: [{ a: 'x' }, { b: 2 }, 'no'], scores: { ann: [1, -1], '7': ['x'] } } })), [
    { name: 'rows[1].b', reason: 'must be of type string', in: 'body' },
    { name: 'rows[2]', reason: 'must be of type object', in: 'body' },
    { name: 'scores.7[0]', reason: 'must be of type integer', in: 'body' },
    { name: 'scores.ann[1]', reason: 'must be greater than or equal to 0', in: 'body' },
  ]);
});

test('query lists accept repeated keys and a single key; elements are coerced and named with indexes', () => {
  const spec = request({ query: [field('ids', list(INTEGER), { minItems: 1, maxItems: 3, uniqueItems: true, min: 1 })] });
  assert.deepEqual(ok(run(spec, { query: { ids: ['1', '2'] } })).query, { ids: [1, 2] });
  assert.deepEqual(ok(run(spec, { query: { ids: '5' } })).query, { ids: [5] });
  assert.deepEqual(fail(run(spec, { query: { ids: ['1', 'x', '0'] } })), [
    { name: 'ids[1]', reason: 'must be of type integer', in: 'query' },
    { name: 'ids[2]', reason: 'must be greater than or equal to 1', in: 'query' },
  ]);
  assert.deepEqual(fail(run(spec, { query: { ids: ['1', '1'] } })), [{ name: 'ids', reason: 'items must be unique', in: 'query' }]);
  assert.deepEqual(fail(run(spec, { query: { ids: ['1', '2', '3', '4'] } })), [{ name: 'ids', reason: 'must contain at most 3 items', in: 'query' }]);
});

test('a scalar query parameter given twice is refused, not silently picked', () => {
  assert.deepEqual(fail(run(SEARCH, { query: { q: ['a', 'bb'] }, headers: { 'x-api-key': KEY } })), [
    { name: 'q', reason: 'must be of type string', in: 'query' },
  ]);
  assert.deepEqual(fail(run(SEARCH, { query: { q: 'ok', limit: ['1', '2'] }, headers: { 'x-api-key': KEY } })), [
    { name: 'limit', reason: 'must be of type integer', in: 'query' },
  ]);
});

test('list headers are split on commas', () => {
  const spec = request({ headers: [field('x-ids', list(INTEGER))] });
  assert.deepEqual(ok(run(spec, { headers: { 'x-ids': '1, 2,3' } })).headers, { 'x-ids': [1, 2, 3] });
});

test('coercion per coordinate: number and boolean; only true/false are booleans', () => {
  const fields = [field('ratio', NUMBER, { min: 0, max: 1 }), field('flag', BOOLEAN), field('raw', ANY)];
  const spec = request({ path: fields, query: fields, headers: fields });
  const text = { ratio: '0.25', flag: 'true', raw: '12' };
  const value = ok(run(spec, { path: text, query: text, headers: text }));
  for (const c of [value.path, value.query, value.headers]) assert.deepEqual(c, { ratio: 0.25, flag: true, raw: '12' });
  assert.deepEqual(ok(run(spec, { query: { ratio: '1e-1', flag: 'false' }, path: { ratio: '0', flag: 'true', raw: '' } })).query, {
    ratio: 0.1,
    flag: false,
  });
  const bad = { ratio: '.5', flag: '1' };
  assert.deepEqual(fail(run(spec, { path: bad, query: { ratio: '2', flag: 'TRUE' }, headers: { ratio: 'NaN', flag: 'yes' } })), [
    { name: 'ratio', reason: 'must be of type number', in: 'path' },
    { name: 'flag', reason: 'must be of type boolean', in: 'path' },
    { name: 'ratio', reason: 'must be less than or equal to 1', in: 'query' },
    { name: 'flag', reason: 'must be of type boolean', in: 'query' },
    { name: 'ratio', reason: 'must be of type number', in: 'header' },
    { name: 'flag', reason: 'must be of type boolean', in: 'header' },
  ]);
  assert.deepEqual(fail(run(spec, { query: { ratio: '1e999' } })), [{ name: 'ratio', reason: 'must be of type number', in: 'query' }]);
});

test('defaults per coordinate: path, query and header defaults are typed values', () => {
  const spec = request({
    path: [field('v', INTEGER, { default: 1 })],
    query: [field('page', INTEGER, { default: 1 }), field('all', BOOLEAN, { default: false })],
    headers: [field('x-tenant', STRING, { default: 'public' }), field('x-retries', INTEGER, { default: 3 })],
  });
  const value = ok(run(spec, {}));
  assert.deepEqual(value.path, { v: 1 });
  assert.deepEqual(value.query, { page: 1, all: false });
  assert.deepEqual(value.headers, { 'x-tenant': 'public', 'x-retries': 3 });
  const given = ok(run(spec, { query: { page: '4', all: 'true' }, headers: { 'x-retries': '0' } }));
  assert.deepEqual(given.query, { page: 4, all: true });
  assert.deepEqual(given.headers, { 'x-tenant': 'public', 'x-retries': 0 });
});

test('a declared default of null is injected and admitted', () => {
  const spec = request({
    query: [field('cursor', STRING, { default: null, minLength: 4 })],
    body: object([field('note', STRING, { default: null, enum: ['a', 'b'] })]),
  });
  const value = ok(run(spec, { body: {} }));
  assert.deepEqual(value.query, { cursor: null });
  assert.deepEqual(value.body, { note: null });
  assert.deepEqual(fail(run(spec, { query: { cursor: 'ab' }, body: { note: 'c' } })), [
    { name: 'cursor', reason: 'length must be at least 4 characters', in: 'query' },
    { name: 'note', reason: 'must be one of: ["a", "b", null]', in: 'body' },
  ]);
});

test('safe-integer rule: text integers beyond ±(2^53−1) are a 422 with its own reason', () => {
  const spec = request({ path: [field('id', INTEGER, { required: true })], query: [field('n', INTEGER, { min: -5 })], headers: [field('x-n', INTEGER)] });
  assert.deepEqual(ok(run(spec, { path: { id: '9007199254740991' }, query: { n: '-5' } })).path, { id: 9007199254740991 });
  assert.deepEqual(ok(run(spec, { path: { id: '-9007199254740991' } })).path, { id: -9007199254740991 });
  assert.deepEqual(fail(run(spec, { path: { id: '9007199254740992' }, query: { n: '99999999999999999999999' }, headers: { 'x-n': '-9007199254740993' } })), [
    { name: 'id', reason: 'must be a safe integer', in: 'path' },
    { name: 'n', reason: 'must be a safe integer', in: 'query' },
    { name: 'x-n', reason: 'must be a safe integer', in: 'header' },
  ]);
  // A declared bound inside the safe range keeps its own reason.
  assert.deepEqual(fail(run(SEARCH, { query: { q: 'ok', limit: '99999999999999999999' }, headers: { 'x-api-key': KEY } })), [
    { name: 'limit', reason: 'must be less than or equal to 100', in: 'query' },
  ]);
  // `-0` is read as 0.
  assert.ok(Object.is(ok(run(spec, { path: { id: '-0' } })).path.id, 0));
});

test('safe-integer rule holds for JSON body integers too', () => {
  const spec = request({ body: object([field('id', INTEGER), field('big', NUMBER)]) });
  ok(run(spec, { body: { id: 9007199254740991, big: 1e300 } }));
  assert.deepEqual(fail(run(spec, { body: JSON.parse('{"id": 12345678901234567890}') })), [{ name: 'id', reason: 'must be a safe integer', in: 'body' }]);
});

test('header names: declared in any casing, reported lower-case', () => {
  const spec = request({ headers: [field('X-Request-Tag', STRING, { required: true, pattern: '^[a-z]+$' })] });
  assert.deepEqual(ok(run(spec, { headers: { 'x-request-tag': 'abc' } })).headers, { 'x-request-tag': 'abc' });
  assert.deepEqual(fail(run(spec, { headers: { 'x-request-tag': 'ABC' } })), [{ name: 'x-request-tag', reason: 'must match pattern ^[a-z]+$', in: 'header' }]);
});

test('string headers without defaults are validated without copying the headers object', () => {
  const headers = { 'x-api-key': KEY, host: 'h' };
  const value = ok(run(SEARCH, { query: { q: 'hello' }, headers }));
  assert.equal(value.headers, headers);
});

test('a recursive schema compiles and validates nested levels', () => {
  const fields: FieldSpecMutable[] = [field('label', STRING, { required: true })];
  const node = object(fields, 'node');
  fields.push(field('children', list(node)));
  const spec = request({ body: node });
  ok(run(spec, { body: { label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] } }));
  assert.deepEqual(fail(run(spec, { body: { label: 'a', children: [{ label: 'b', children: [{}] }] } })), [
    { name: 'children[0].children[0].label', reason: 'is required', in: 'body' },
  ]);
});
type FieldSpecMutable = ReturnType<typeof field>;

test('unique_items on a list of objects: key order does not matter, and it runs in linear time', () => {
  const spec = request({ body: object([field('items', list(object([field('a', INTEGER), field('b', ANY)])), { uniqueItems: true })]) });
  const v = compileRequestValidator(spec);
  assert.equal(
    v.validate(
      input({
        body: {
          items: [
            { a: 1, b: [1] },
            { a: 1, b: [2] },
          ],
        },
      }),
    ).ok,
    true,
  );
  assert.deepEqual(
    fail(
      v.validate(
        input({
          body: {
            items: [
              { a: 1, b: { x: 1, y: 2 } },
              { b: { y: 2, x: 1 }, a: 1 },
            ],
          },
        }),
      ),
    ),
    [{ name: 'items', reason: 'items must be unique', in: 'body' }],
  );
  const many = Array.from({ length: 30_000 }, (_, i) => ({ a: i }));
  const cpuMs = cpuTimer();
  assert.equal(v.validate(input({ body: { items: many } })).ok, true);
  assert.ok(cpuMs() < 2000, 'ajv compares pairs (24 s here); the hashed keyword must not');
  const anyList = compileRequestValidator(request({ body: object([field('xs', list(ANY), { uniqueItems: true })]) }));
  assert.equal(anyList.validate(input({ body: { xs: [1, '1', [1], { '1': 1 }, null] } })).ok, true);
  assert.equal(
    anyList.validate(
      input({
        body: {
          xs: [
            [1, { a: null }],
            [1, { a: null }],
          ],
        },
      }),
    ).ok,
    false,
  );
});

test('invalid_params is bounded (100 by default, configurable), keeping the first entries in order', () => {
  const spec = request({ query: [field('q', STRING, { required: true })], body: object([field('tags', list(STRING))]) });
  const body = { tags: Array.from({ length: 250_000 }, () => 1) };
  const cpuMs = cpuTimer();
  const params = fail(compileRequestValidator(spec).validate(input({ body })));
  assert.ok(cpuMs() < 3000);
  assert.equal(params.length, 100);
  assert.deepEqual(params[0], { name: 'q', reason: 'is required', in: 'query' });
  assert.deepEqual(params[1], { name: 'tags[0]', reason: 'must be of type string', in: 'body' });
  assert.deepEqual(params[99], { name: 'tags[98]', reason: 'must be of type string', in: 'body' });
  const three = fail(compileRequestValidator(spec, { maxInvalidParams: 3 }).validate(input({ body })));
  assert.deepEqual(
    three.map((p) => p.name),
    ['q', 'tags[0]', 'tags[1]'],
  );
});

test('JSON numbers that overflow to Infinity are not numbers', () => {
  const spec = request({ body: object([field('n', NUMBER), field('i', INTEGER)]) });
  assert.deepEqual(fail(run(spec, { body: JSON.parse('{"n": 1e400, "i": -1e400}') })), [
    { name: 'n', reason: 'must be of type number', in: 'body' },
    { name: 'i', reason: 'must be of type integer', in: 'body' },
  ]);
});

test('the search validator is cheap (loose bound: 100k validations well under a second)', () => {
  const v = compileRequestValidator(SEARCH);
  const headers = { host: 'h', accept: '*/*', 'x-api-key': KEY };
  const full = input({ query: { q: 'hello', limit: '50', sort: 'asc' }, headers });
  for (let i = 0; i < 10_000; i++) v.validate(full);
  const cpuMs = cpuTimer();
  for (let i = 0; i < 100_000; i++) v.validate(full);
  // ~0.17 us each on the development machine: this bound (10 us) only catches a per-request compile.
  assert.ok(cpuMs() < 1000);
});

test('an object shared by several fields ($defs) validates and takes defaults everywhere, nullable uses included', () => {
  const address = object([field('city', STRING, { required: true }), field('zip', STRING, { default: '00000' })], 'address');
  const v = compileRequestValidator(
    request({
      body: object([field('home', address), field('past', list(address)), field('next', address, { default: null })]),
    }),
  );
  const body: Record<string, unknown> = { home: { city: 'A' }, past: [{ city: 'B', zip: '1' }, {}], next: {} };
  const r = v.validate({ path: {}, query: {}, headers: {}, body });
  assert.deepEqual(r.ok ? [] : r.invalidParams, [
    { name: 'past[1].city', reason: 'is required', in: 'body' },
    { name: 'next.city', reason: 'is required', in: 'body' },
  ]);
  const ok: Record<string, unknown> = { home: { city: 'A' }, past: [{ city: 'B' }] };
  assert.equal(v.validate({ path: {}, query: {}, headers: {}, body: ok }).ok, true);
  assert.deepEqual(ok, { home: { city: 'A', zip: '00000' }, past: [{ city: 'B', zip: '00000' }], next: null });
  const next: Record<string, unknown> = { next: { city: 'C' } };
  assert.equal(v.validate({ path: {}, query: {}, headers: {}, body: next }).ok, true);
  assert.deepEqual(next, { next: { city: 'C', zip: '00000' } });
  const wrong = v.validate({ path: {}, query: {}, headers: {}, body: { next: 'x' } });
  assert.deepEqual(wrong.ok ? [] : wrong.invalidParams, [{ name: 'next', reason: 'must be of type object', in: 'body' }]);
});
