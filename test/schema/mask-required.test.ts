/**
 * compileMask with `requireFields` (a respond step's declared schema): a declared required field the
 * value lacks throws MissingRequiredField, located from the top of the value; everything else is as
 * the stream's mask does it (test/schema/mask.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileMask, MissingRequiredField, type FieldSpec, type ObjectTypeSpec, type TypeSpec } from '../../src/schema/index.js';

function field(name: string, type: TypeSpec, required = false): FieldSpec {
  return { name, type, required, hasDefault: false };
}

const str: TypeSpec = { kind: 'string' };
const int: TypeSpec = { kind: 'integer' };
const address: ObjectTypeSpec = { kind: 'object', name: 'address', fields: [field('city', str, true), field('zip', str)] };
const user: ObjectTypeSpec = {
  kind: 'object',
  name: 'user',
  fields: [field('id', int, true), field('email', str, true), field('home', address), field('history', { kind: 'list', items: address })],
};

function missing(run: () => unknown): MissingRequiredField {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof MissingRequiredField, `expected MissingRequiredField, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the mask to throw');
}

test('required mode: extra fields dropped through nested objects and lists, as without it', () => {
  const mask = compileMask(user, { requireFields: true });
  const row = {
    password_hash: '$argon2id$...',
    email: 'ada@example.com',
    id: 1,
    home: { city: 'London', secret: 'x' },
    history: [{ city: 'Paris', zip: '75001', note: 'n' }],
  };
  assert.deepEqual(mask(row), { id: 1, email: 'ada@example.com', home: { city: 'London' }, history: [{ city: 'Paris', zip: '75001' }] });
  assert.deepEqual(Object.keys(mask(row) as object), ['id', 'email', 'home', 'history'], 'declaration order');
});

test('required mode: optional fields may be absent; null is a value (present), not a missing field', () => {
  const mask = compileMask(user, { requireFields: true });
  assert.deepEqual(mask({ id: 1, email: 'a@b.c' }), { id: 1, email: 'a@b.c' });
  assert.deepEqual(mask({ id: null, email: null, home: null }), { id: null, email: null, home: null });
  assert.equal(mask(null), null);
});

test('required mode: a missing required field throws, located from the top of the value', () => {
  const one = compileMask(user, { requireFields: true });
  const top = missing(() => one({ id: 1, password_hash: 'x' }));
  assert.equal(top.field, 'email');
  assert.equal(top.schema, 'user');
  assert.equal(top.where(), 'email');
  assert.match(top.message, /required field "email" of schema user is missing/);

  const nested = missing(() => one({ id: 1, email: 'a@b.c', history: [{ city: 'Paris' }, { zip: '1' }] }));
  assert.equal(nested.schema, 'address');
  assert.equal(nested.where(), 'history[1].city');

  const list = compileMask({ kind: 'list', items: user }, { requireFields: true });
  assert.deepEqual(
    list([
      { id: 1, email: 'a', x: 1 },
      { id: 2, email: 'b' },
    ]),
    [
      { id: 1, email: 'a' },
      { id: 2, email: 'b' },
    ],
  );
  assert.equal(missing(() => list([{ id: 1, email: 'a' }, { id: 2, email: 'b' }, { id: 3 }])).where(), '[2].email');

  const byName = compileMask({ kind: 'map', values: address }, { requireFields: true });
  assert.equal(missing(() => byName({ work: { city: 'Lille' }, old: { zip: '1' } })).where(), 'old.city');
});

test('without requireFields a missing required field stays absent (a stream item)', () => {
  assert.deepEqual(compileMask(user)({ id: 1, password_hash: 'x' }), { id: 1 });
});
