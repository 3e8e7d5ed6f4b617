import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stringifyExact } from '../../src/json/stringify.js';

test('BigInt values become exact JSON numbers, nested anywhere', () => {
  const big = 2n ** 64n + 1n;
  assert.equal(stringifyExact({ a: big, b: [1, -big, { c: 3n }] }), '{"a":18446744073709551617,"b":[1,-18446744073709551617,{"c":3}]}');
  assert.equal(stringifyExact(big), '18446744073709551617');
});

test('values without BigInt are exactly JSON.stringify, indentation included', () => {
  const v = { s: 'x"y', n: 1.5, l: [true, null], o: {} };
  assert.equal(stringifyExact(v), JSON.stringify(v));
  assert.equal(stringifyExact(v, 2), JSON.stringify(v, null, 2));
});

test('strings that look like a marker stay strings', () => {
  const v = { n: 1n, s: '__bigint__12', t: '\u0000deadbeef:12' };
  assert.equal(stringifyExact(v), '{"n":1,"s":"__bigint__12","t":"\\u0000deadbeef:12"}');
});

test('cycles still throw, as JSON.stringify does', () => {
  const a: Record<string, unknown> = { n: 1n };
  a.self = a;
  assert.throws(() => stringifyExact(a), TypeError);
});
