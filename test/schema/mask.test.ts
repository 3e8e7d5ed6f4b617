import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileMask, type FieldSpec, type ObjectTypeSpec, type TypeSpec } from '../../src/schema/index.js';

function field(name: string, type: TypeSpec): FieldSpec {
  return { name, type, required: false, hasDefault: false };
}

function object(fields: FieldSpec[], name?: string): ObjectTypeSpec {
  return { kind: 'object', fields, ...(name ? { name } : {}) };
}

const str: TypeSpec = { kind: 'string' };
const int: TypeSpec = { kind: 'integer' };

test('mask: keeps only the declared fields, in declaration order; absent fields stay absent', () => {
  const mask = compileMask(object([field('id', int), field('name', str), field('email', str)]));
  assert.deepEqual(mask({ password_hash: 'x', name: 'a', id: 1, extra: { deep: true } }), { id: 1, name: 'a' });
  assert.deepEqual(Object.keys(mask({ name: 'a', id: 1 }) as object), ['id', 'name']);
});

test('mask: through nested objects, lists and maps', () => {
  const address = object([field('city', str)], 'address');
  const spec = object([
    field('id', int),
    field('home', address),
    field('history', { kind: 'list', items: address }),
    field('by_label', { kind: 'map', values: address }),
    field('tags', { kind: 'list', items: str }),
    field('meta', { kind: 'any' }),
  ]);
  const mask = compileMask(spec);
  const input = {
    id: 1,
    secret: 's',
    home: { city: 'Paris', street: 'hidden' },
    history: [{ city: 'Lyon', zip: 1 }, { city: 'Nice' }],
    by_label: { work: { city: 'Lille', floor: 3 }, old: { city: 'Metz' } },
    tags: ['a', 'b'],
    meta: { anything: { goes: 1 } },
  };
  assert.deepEqual(mask(input), {
    id: 1,
    home: { city: 'Paris' },
    history: [{ city: 'Lyon' }, { city: 'Nice' }],
    by_label: { work: { city: 'Lille' }, old: { city: 'Metz' } },
    tags: ['a', 'b'],
    meta: { anything: { goes: 1 } },
  });
  assert.equal(input.home.street, 'hidden', 'the input is not modified');
});

test('mask: a list or map of objects at the top (a stream of rows as one list)', () => {
  const row = object([field('a', int)]);
  assert.deepEqual(compileMask({ kind: 'list', items: row })([{ a: 1, b: 2 }, { b: 3 }]), [{ a: 1 }, {}]);
  assert.deepEqual(compileMask({ kind: 'map', values: row })({ k: { a: 1, b: 2 } }), { k: { a: 1 } });
});

test('mask: values of another shape pass through unchanged (masking is not validation)', () => {
  const inner = object([field('x', int)]);
  const mask = compileMask(object([field('o', inner), field('l', { kind: 'list', items: inner }), field('m', { kind: 'map', values: inner })]));
  const date = new Date(0);
  const buffer = Buffer.from('x');
  assert.deepEqual(mask({ o: null, l: 'not a list', m: [1, 2] }), { o: null, l: 'not a list', m: [1, 2] });
  const masked = mask({ o: date, l: [null, 5, { x: 1, y: 2 }], m: { a: 'text' } }) as Record<string, unknown>;
  assert.equal(masked.o, date, 'a Date is a value, not a record');
  assert.deepEqual(masked.l, [null, 5, { x: 1 }]);
  assert.deepEqual(masked.m, { a: 'text' });
  assert.equal(mask(buffer), buffer);
  assert.equal(mask('scalar'), 'scalar');
  assert.equal(mask(null), null);
  assert.equal(mask(undefined), undefined);
  assert.deepEqual(mask({ o: { x: 'not an int', y: 1 } }), { o: { x: 'not an int' } }, 'declared fields are not type-checked');
});

test('mask: a type without objects is the identity (no copy)', () => {
  const value = { a: [1, 2] };
  assert.equal(compileMask({ kind: 'any' })(value), value);
  const list = [{ a: 1 }];
  assert.equal(compileMask({ kind: 'list', items: { kind: 'any' } })(list), list);
  assert.equal(compileMask({ kind: 'map', values: str })(value), value);
});

test('mask: a schema that contains itself', () => {
  const fields: FieldSpec[] = [field('name', str)];
  const node: ObjectTypeSpec = { kind: 'object', name: 'node', fields };
  fields.push(field('children', { kind: 'list', items: node }));
  const mask = compileMask(node);
  const tree = { name: 'root', x: 1, children: [{ name: 'a', x: 2, children: [{ name: 'b', x: 3 }] }] };
  assert.deepEqual(mask(tree), { name: 'root', children: [{ name: 'a', children: [{ name: 'b' }] }] });
});

test('mask: an object used by several fields is compiled once and masks each use', () => {
  const point = object([field('x', int)], 'point');
  const mask = compileMask(object([field('from', point), field('to', point)]));
  assert.deepEqual(mask({ from: { x: 1, y: 1 }, to: { x: 2, y: 2 } }), { from: { x: 1 }, to: { x: 2 } });
});

test('mask: BigInt values and null-prototype objects are kept as they are', () => {
  const mask = compileMask(object([field('n', int), field('o', object([field('k', str)]))]));
  const input = Object.assign(Object.create(null) as Record<string, unknown>, { n: 2n ** 64n, o: { k: 'v', z: 1 }, drop: 1 });
  assert.deepEqual(mask(input), { n: 2n ** 64n, o: { k: 'v' } });
});

test('mask: a __proto__ key of a map becomes an own field, never the prototype', () => {
  const mask = compileMask({ kind: 'map', values: object([field('a', int)]) });
  const input = JSON.parse('{"__proto__": {"a": 1, "b": 2}, "k": {"a": 3}}') as unknown;
  const out = mask(input) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { a: 1 });
  assert.equal(JSON.stringify(out), '{"__proto__":{"a":1},"k":{"a":3}}');
});
