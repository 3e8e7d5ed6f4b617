import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ev, fails } from './helpers.js';

test('small ints stay JS numbers, big ints are exact BigInts', () => {
  assert.equal(ev('1 + 2'), 3);
  assert.equal(ev('9007199254740991 + 1'), 9007199254740992n);
  assert.equal(ev('(9007199254740991 + 1) - 1'), 9007199254740991);
  assert.equal(ev('1 << 100'), 1267650600228229401496703205376n);
  assert.equal(ev('str(1 << 100)'), '1267650600228229401496703205376');
  assert.equal(ev('123456789012345678901234567890 * 10'), 1234567890123456789012345678900n);
  assert.equal(ev('-(1 << 64) // 3'), -6148914691236517206n);
  assert.equal(ev('type(1 << 64)'), 'int');
});

test('floored division and modulo follow Python', () => {
  assert.deepEqual(ev('[7 // 2, -7 // 2, 7 // -2, -7 // -2]'), [3, -4, -4, 3]);
  assert.deepEqual(ev('[7 % 3, -7 % 3, 7 % -3, -7 % -3]'), [1, 2, -2, -1]);
  assert.equal(ev('(1 << 80) % 7'), Number((1n << 80n) % 7n));
  assert.match(fails('x = 1 // 0').msg, /floored division by zero/);
  assert.match(fails('x = 1 % 0').msg, /integer modulo by zero/);
});

test('bitwise ops and shifts', () => {
  assert.deepEqual(ev('[6 & 3, 6 | 3, 6 ^ 3, ~5, 1 << 3, -16 >> 2]'), [2, 7, 5, -6, 8, -4]);
  assert.equal(ev('(1 << 70) >> 69'), 2);
  assert.equal(ev('(1 << 40) | 1'), 1099511627777);
  assert.match(fails('x = 1 << -1').msg, /negative shift count/);
  assert.match(fails('x = 1 << 512').msg, /shift count too large/);
});

test('int() conversions and literals', () => {
  assert.deepEqual(ev('[int("42"), int("-0x1f", 16), int("0b101", 0), int("z", 36), int(3.9), int(-3.9), int(True)]'), [42, -31, 5, 35, 3, -3, 1]);
  assert.deepEqual(ev('[0x10, 0o17, 0b11]'), [16, 15, 3]);
  assert.equal(ev('int(1e20)'), 100000000000000000000n);
  assert.match(fails('x = int("1.5")').msg, /invalid literal with base 10/);
  assert.match(fails('x = int(float("inf"))').msg, /cannot convert float infinity to integer/);
});

test('int/float mixing', () => {
  assert.equal(ev('type(1 + 1.0)'), 'float');
  assert.equal(ev('3 / 2'), 1.5);
  assert.equal(ev('(1 << 53) + 1 > float(1 << 53)'), true);
  assert.match(fails('x = float((1 << 500) * (1 << 500) * (1 << 100))').msg, /int too large to convert to float/);
  assert.match(fails('x = ((1 << 500) * (1 << 500) * (1 << 100)) + 1.0').msg, /int too large to convert to float/);
});

test('floor division of large safe ints is exact', () => {
  assert.equal(ev('9007199254740991 // 7'), Number(9007199254740991n / 7n));
  assert.equal(ev('(9007199254740990 - 1) // 9007199254740990'), 0);
});
