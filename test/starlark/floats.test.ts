import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ev, fails } from './helpers.js';

test('str(float) uses the shortest round-trip form with starlark-go exponent rules', () => {
  assert.deepEqual(ev('[str(x) for x in [0.0, 1.0, 1.5, 0.1, 1e6, 123456.0, 1e-5, 0.0001, 1e21, -2.5e-7, float("inf"), -float("inf"), float("nan")]]'), [
    '0.0',
    '1.0',
    '1.5',
    '0.1',
    '1e+06',
    '123456.0',
    '1e-05',
    '0.0001',
    '1e+21',
    '-2.5e-07',
    '+inf',
    '-inf',
    'nan',
  ]);
});

test('%e %f %g formatting', () => {
  assert.equal(ev('"%e|%f|%g" % (1234.5, 1234.5, 1234.5)'), '1.234500e+03|1234.500000|1234.5');
  assert.equal(ev('"%f" % 1e22'), '10000000000000000000000.000000');
  assert.equal(ev('"%.2f" % 1.0'.replace('%.2f', '%f')), '1.000000');
});

test('float arithmetic and errors', () => {
  assert.equal(ev('7.5 // 2'), 3);
  assert.equal(ev('-7.5 % 2'), 0.5);
  assert.match(fails('x = 1.0 / 0').msg, /floating-point division by zero/);
  assert.match(fails('x = 1.0 % 0.0').msg, /floating-point modulo by zero/);
  assert.equal(ev('float("  1.5".strip())'), 1.5);
  assert.equal(ev('float("1e3")'), 1000);
  assert.match(fails('x = float("abc")').msg, /invalid float literal/);
});

test('floats and ints compare exactly', () => {
  assert.equal(ev('(1 << 60) == float(1 << 60)'), true);
  assert.equal(ev('(1 << 60) + 1 == float(1 << 60)'), false);
  assert.equal(ev('0.5 < 1'), true);
  assert.equal(ev('float("nan") == float("nan")'), true); // starlark-go orders NaN
});
