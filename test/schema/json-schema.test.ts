import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toJsonSchema, toValidatorSchema } from '../../src/schema/index.js';
import type { FieldSpec, ObjectTypeSpec } from '../../src/schema/field.js';
import { ANY, BOOLEAN, INTEGER, NUMBER, STRING, TRANSFORM, USER_CREATE, field, list, map, object } from './specs.js';

test('scalar types', () => {
  assert.deepEqual(toJsonSchema(STRING), { type: 'string' });
  assert.deepEqual(toJsonSchema(INTEGER), { type: 'integer' });
  assert.deepEqual(toJsonSchema(NUMBER), { type: 'number' });
  assert.deepEqual(toJsonSchema(BOOLEAN), { type: 'boolean' });
  assert.deepEqual(toJsonSchema(ANY), {});
});

test('list, map and their nesting', () => {
  assert.deepEqual(toJsonSchema(list(STRING)), { type: 'array', items: { type: 'string' } });
  assert.deepEqual(toJsonSchema(map(INTEGER)), { type: 'object', additionalProperties: { type: 'integer' } });
  assert.deepEqual(toJsonSchema(list(map(STRING))), {
    type: 'array',
    items: { type: 'object', additionalProperties: { type: 'string' } },
  });
  assert.deepEqual(toJsonSchema(map(list(ANY))), { type: 'object', additionalProperties: { type: 'array', items: {} } });
});

test('every attribute of SPEC.md §2.2 maps one to one', () => {
  assert.deepEqual(
    toJsonSchema(field('s', STRING, { description: 'd', enum: ['a', 'b'], format: 'email', pattern: '^a', minLength: 1, maxLength: 9, default: 'a' })),
    { description: 'd', type: 'string', enum: ['a', 'b'], format: 'email', pattern: '^a', minLength: 1, maxLength: 9, default: 'a' },
  );
  assert.deepEqual(toJsonSchema(field('n', NUMBER, { min: 0.5, max: 10, enum: [1, 2.5] })), {
    type: 'number',
    enum: [1, 2.5],
    minimum: 0.5,
    maximum: 10,
  });
  assert.deepEqual(toJsonSchema(field('l', list(INTEGER), { minItems: 1, maxItems: 3, uniqueItems: true, default: [1] })), {
    type: 'array',
    items: { type: 'integer' },
    minItems: 1,
    maxItems: 3,
    uniqueItems: true,
    default: [1],
  });
  // unique_items = false is the default and says nothing.
  assert.deepEqual(toJsonSchema(field('l', list(INTEGER), { uniqueItems: false })), { type: 'array', items: { type: 'integer' } });
  // `required` belongs to the enclosing object.
  assert.deepEqual(toJsonSchema(field('r', STRING, { required: true })), { type: 'string' });
});

test('scalar constraints on a list or map reach the innermost elements; item counts stay outside', () => {
  assert.deepEqual(toJsonSchema(field('tags', list(STRING), { maxLength: 20, pattern: '^[a-z]+$', maxItems: 5 })), {
    type: 'array',
    items: { type: 'string', pattern: '^[a-z]+$', maxLength: 20 },
    maxItems: 5,
  });
  assert.deepEqual(toJsonSchema(field('m', map(list(INTEGER)), { min: 0 })), {
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'integer', minimum: 0 } },
  });
});

test('a default of null makes the type nullable (and enum admits null)', () => {
  assert.deepEqual(toJsonSchema(field('c', STRING, { default: null, enum: ['x'] })), { type: ['string', 'null'], enum: ['x', null], default: null });
  assert.deepEqual(toJsonSchema(field('c', list(STRING), { default: null })), { type: ['array', 'null'], items: { type: 'string' }, default: null });
});

test('objects: properties in declaration order, required list, extra properties allowed', () => {
  assert.deepEqual(toJsonSchema(USER_CREATE), {
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email' },
      account_type: { type: 'string', enum: ['individual', 'business'] },
      username: { type: 'string', pattern: '^[a-zA-Z0-9_-]+$', minLength: 3, maxLength: 30 },
      age: { type: 'integer', minimum: 18, maximum: 120 },
      role: { type: 'string', default: 'member' },
      tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 10, uniqueItems: true },
    },
    required: ['email', 'account_type', 'username'],
  });
  assert.deepEqual(toJsonSchema(TRANSFORM.body!), {
    type: 'object',
    properties: { prefix: { type: 'string', default: 'item' }, tags: { type: 'array', items: { type: 'string' }, default: [] } },
  });
  assert.equal('additionalProperties' in toJsonSchema(USER_CREATE), false);
});

test('named objects: inlined by default, $ref through the ref option (never for the root)', () => {
  const address = object([field('city', STRING, { required: true })], 'address');
  const person = object([field('home', address, { description: 'where' }), field('past', list(address))], 'person');
  assert.deepEqual(toJsonSchema(person), {
    type: 'object',
    properties: {
      home: { description: 'where', type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      past: { type: 'array', items: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    },
  });
  const ref = (o: ObjectTypeSpec) => `#/components/schemas/${o.name}`;
  assert.deepEqual(toJsonSchema(person, { ref }), {
    type: 'object',
    properties: {
      home: { description: 'where', $ref: '#/components/schemas/address' },
      past: { type: 'array', items: { $ref: '#/components/schemas/address' } },
    },
  });
  // An object with a description keeps it.
  assert.deepEqual(toJsonSchema({ kind: 'object', fields: [], description: 'empty' }), { description: 'empty', type: 'object', properties: {} });
});

test('a schema that contains itself needs a $ref; the validator schema uses $defs for it', () => {
  const fields: FieldSpec[] = [field('label', STRING)];
  const node = object(fields, 'node');
  fields.push(field('children', list(node)));
  assert.throws(() => toJsonSchema(node), /schema "node" contains itself/);
  const schema = toValidatorSchema(node);
  assert.deepEqual(schema.properties, {
    label: { type: 'string' },
    children: { type: 'array', items: { $ref: '#/$defs/node' } },
  });
  assert.deepEqual(Object.keys(schema.$defs as object), ['node']);
});

test('forValidator bounds integers', () => {
  const MAX = Number.MAX_SAFE_INTEGER;
  assert.deepEqual(toJsonSchema(INTEGER, { forValidator: true }), { type: 'integer', minimum: -MAX, maximum: MAX });
  assert.deepEqual(toJsonSchema(field('i', INTEGER, { min: 1 }), { forValidator: true }), { type: 'integer', minimum: 1, maximum: MAX });
  assert.deepEqual(toJsonSchema(field('i', INTEGER, { max: 1e300 }), { forValidator: true }), { type: 'integer', minimum: -MAX, maximum: MAX });
  assert.deepEqual(toJsonSchema(NUMBER, { forValidator: true }), { type: 'number' });
});

test('the validator schema puts an object used by several fields in $defs once (a nullable use in a nullable twin)', () => {
  const address = object([field('city', STRING, { required: true }), field('zip', STRING, { default: '00000' })], 'address');
  const once = object([field('a', STRING)], 'once');
  const person = object(
    [
      field('home', address),
      field('past', list(address)),
      field('next', address, { default: null }),
      field('moved', map(address), { default: null }),
      field('o', once),
    ],
    'person',
  );
  const schema = toValidatorSchema(person);
  assert.deepEqual(schema.properties, {
    home: { $ref: '#/$defs/address' },
    past: { type: 'array', items: { $ref: '#/$defs/address' } },
    next: { $ref: '#/$defs/address_or_null', default: null },
    moved: { type: ['object', 'null'], additionalProperties: { $ref: '#/$defs/address' }, default: null },
    // Used at one place only: inlined, as before.
    o: { type: 'object', properties: { a: { type: 'string' } } },
  });
  const city = { type: 'string' };
  const zip = { type: 'string', default: '00000' };
  assert.deepEqual(schema.$defs, {
    address: { type: 'object', properties: { city, zip }, required: ['city'] },
    address_or_null: { type: ['object', 'null'], properties: { city, zip }, required: ['city'] },
  });
  // The published document keeps the `ref` option's own rules: every named object through `ref`,
  // a nullable use as anyOf, no $defs.
  const ref = (o: ObjectTypeSpec) => `#/components/schemas/${o.name}`;
  assert.deepEqual(toJsonSchema(person, { ref }).properties, {
    home: { $ref: '#/components/schemas/address' },
    past: { type: 'array', items: { $ref: '#/components/schemas/address' } },
    next: { anyOf: [{ $ref: '#/components/schemas/address' }, { type: 'null' }], default: null },
    moved: { type: ['object', 'null'], additionalProperties: { $ref: '#/components/schemas/address' }, default: null },
    o: { $ref: '#/components/schemas/once' },
  });
});

test('the validator schema of the reference shapes is unchanged: no named object inside, nothing referenced', () => {
  assert.deepEqual(toValidatorSchema(USER_CREATE), toJsonSchema(USER_CREATE, { forValidator: true }));
  assert.equal('$defs' in toValidatorSchema(USER_CREATE), false);
});
