import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ev, rp, fails } from './helpers.js';

test('None, bool and truth values', () => {
  assert.equal(ev('None'), null);
  assert.equal(ev('not None'), true);
  assert.deepEqual(ev('[bool(x) for x in [0, 1, "", "a", [], [0], {}, 0.0, None, ()]]'), [false, true, false, true, false, true, false, false, false, false]);
  assert.equal(ev('True and 2'), 2);
  assert.equal(ev('0 or "x"'), 'x');
});

test('type() names', () => {
  assert.deepEqual(ev('[type(x) for x in [None, True, 1, 1 << 70, 1.5, "s", b"b", [], (), {}, set(), len, range(2)]]'), [
    'NoneType',
    'bool',
    'int',
    'int',
    'float',
    'string',
    'bytes',
    'list',
    'tuple',
    'dict',
    'set',
    'builtin_function_or_method',
    'range',
  ]);
  assert.equal(ev('type(lambda: 1)'), 'function');
});

test('repr and str', () => {
  assert.equal(rp('"a\\"b\\n"'), '"a\\"b\\n"');
  assert.equal(rp('[1, "x", (2,), {"k": None}]'), '[1, "x", (2,), {"k": None}]');
  assert.equal(ev('str(1.0)'), '1.0');
  assert.equal(ev('str("abc")'), 'abc');
  assert.equal(rp('set([1, 2])'), 'set([1, 2])');
  assert.equal(rp('b"\\x00ab"'), 'b"\\x00ab"');
  assert.equal(ev('str(len)'), '<built-in function len>');
  assert.equal(ev('repr("x".upper)'), '<built-in method upper of string value>');
});

test('cyclic structures print with ...', () => {
  const r = ev('(lambda l: (l.append(l), str(l))[1])([1])');
  assert.equal(r, '[1, [...]]');
});

test('equality and ordering across types', () => {
  assert.equal(ev('1 == 1.0'), true);
  assert.equal(ev('[1, 2] < [1, 3]'), true);
  assert.equal(ev('(1, "a") < (1, "b")'), true);
  assert.equal(ev('"abc" < "abd"'), true);
  assert.equal(ev('{"a": 1} == {"a": 1.0}'), true);
  assert.equal(ev('1 == "1"'), false);
  assert.match(fails('x = 1 < "1"').msg, /int < string not implemented/);
  assert.match(fails('x = {} < {}').msg, /dict < dict not implemented/);
});

test('hashing: unhashable keys are errors', () => {
  assert.match(fails('x = {[1]: 2}').msg, /unhashable type: list/);
  assert.match(fails('x = set([{}])').msg, /unhashable type: dict/);
  assert.equal(ev('{(1, "a"): 1}[(1, "a")]'), 1);
  assert.equal(ev('{1: "int"}[1.0]'), 'int');
});
