/**
 * The response-size bound (src/expr/json-size.ts): `jsonLengthExceeds` says whether a value written as
 * JSON is certainly longer than a limit, without writing it; `responseJson` refuses such a body.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonLengthExceeds, MAX_RESPONSE_CHARS, ResponseTooLarge, responseJson } from '../../src/expr/index.js';

test('a value is over the limit only when its JSON text certainly is', () => {
  const values: unknown[] = ['abc', 42, null, true, [], {}, { status: 'ok', timestamp: 1_700_000_000 }, [1, [2, [3, 'x']], { a: null }], { d: new Date(0) }];
  for (const value of values) {
    const length = JSON.stringify(value).length;
    assert.equal(jsonLengthExceeds(value, length + 10), false, `${JSON.stringify(value)} within ${length + 10}`);
    assert.equal(jsonLengthExceeds(value, 0), true, `${JSON.stringify(value)} over 0`);
  }
});

test('an object of scalars is measured as exactly as the walk measures one with a nested member', () => {
  // Strings, keys and braces are counted exactly; every other scalar as one character.
  const flat = { name: 'abc', n: 7 };
  const flatMeasure = 1 + ('name'.length + 4 + 5) + ('n'.length + 4 + 1);
  assert.equal(jsonLengthExceeds(flat, flatMeasure - 1), true);
  assert.equal(jsonLengthExceeds(flat, flatMeasure), false);
  // The same members behind an object member: the walk takes over and counts the nested braces too.
  const nested = { inner: flat, name: 'abc' };
  const nestedMeasure = 1 + ('inner'.length + 4 + flatMeasure) + ('name'.length + 4 + 5);
  assert.equal(jsonLengthExceeds(nested, nestedMeasure - 1), true);
  assert.equal(jsonLengthExceeds(nested, nestedMeasure), false);
  // Inherited members are not written by JSON.stringify, so not counted.
  const child = Object.assign(Object.create({ inherited: 'x'.repeat(100) }) as object, { own: 1 });
  assert.equal(jsonLengthExceeds(child, 1 + 'own'.length + 4 + 1), false);
});

test('a walk that stops early leaves nothing behind for the next one', () => {
  const wide = { big: 'x'.repeat(100), list: Array.from({ length: 50 }, (_, i) => ({ i })) };
  assert.equal(jsonLengthExceeds(wide, 50), true);
  // The same small value, after an early stop with many entries still queued: measured alone.
  assert.equal(jsonLengthExceeds({ a: 1 }, 10), false);
  assert.equal(jsonLengthExceeds([], 2), false);
});

test('responseJson writes a body, and refuses one over MAX_RESPONSE_CHARS before writing it', () => {
  assert.equal(responseJson({ status: 'ok' }), '{"status":"ok"}');
  const huge = Array.from({ length: 64 }, () => 'y'.repeat(Math.ceil(MAX_RESPONSE_CHARS / 63)));
  assert.throws(() => responseJson(huge), ResponseTooLarge);
});
