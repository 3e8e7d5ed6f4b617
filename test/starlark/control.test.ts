import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ev, run, compileErrors } from './helpers.js';

test('if/elif/else, for, while, break, continue, pass', () => {
  const g = run(`
def classify(n):
    if n < 0:
        return "neg"
    elif n == 0:
        return "zero"
    else:
        return "pos"
def loops():
    out = []
    for i in range(10):
        if i == 2:
            continue
        if i == 5:
            break
        out.append(i)
    j = 0
    while True:
        j += 1
        if j > 3:
            break
    for k in []:
        pass
    return out, j
r = [classify(-1), classify(0), classify(2)]
l = loops()
`);
  assert.deepEqual(g.r, ['neg', 'zero', 'pos']);
  assert.deepEqual(g.l, [[0, 1, 3, 4], 4]);
});

test('comprehensions with several clauses and their own scope', () => {
  assert.deepEqual(ev('[(x, y) for x in range(3) if x for y in "ab".elems()]'), [
    [1, 'a'],
    [1, 'b'],
    [2, 'a'],
    [2, 'b'],
  ]);
  assert.deepEqual(ev('{x: x * x for x in range(3)}'), { 0: 0, 1: 1, 2: 4 });
  assert.deepEqual(ev('[x for x in [[1, 2], [3]] for x in x]'), [1, 2, 3]);
});

test('conditional expressions and augmented assignment', () => {
  assert.equal(ev('"a" if 0 else "b"'), 'b');
  const g = run('x = 1\ny = [1]\ndef f():\n    a = 5\n    a -= 2\n    a *= 3\n    a //= 2\n    a %= 3\n    a <<= 4\n    a |= 1\n    return a\nr = f()\n');
  assert.equal(g.r, 17);
});

test('dialect: top-level control flow is rejected by default, while/set are allowed', () => {
  const errs = compileErrors('for x in []:\n    pass\n');
  assert.match(errs[0]!.message, /for loop not within a function/);
  assert.deepEqual(ev('(lambda: [i for i in range(3)])()'), [0, 1, 2]);
  assert.deepEqual(ev('sorted(set([3, 1]))'), [1, 3]);
});

test('slicing, ranges and builtins', () => {
  assert.deepEqual(ev('list(range(10)[2:8:3])'), [2, 5]);
  assert.deepEqual(ev('[len(range(0, 10, 3)), 9 in range(0, 10, 3), list(reversed(range(3)))]'), [4, true, [2, 1, 0]]);
  assert.deepEqual(ev('[min(3, 1, 2), max([1, 5, 2]), max("a", "bb", key=len), abs(-3), any([0, 1]), all([1, 0])]'), [1, 5, 'bb', 3, true, false]);
  assert.deepEqual(ev('[list(enumerate("ab".elems(), 1)), zip([1, 2], "ab".elems())]'), [
    [
      [1, 'a'],
      [2, 'b'],
    ],
    [
      [1, 'a'],
      [2, 'b'],
    ],
  ]);
  assert.deepEqual(ev('dir({})[:3]'), ['clear', 'get', 'items']);
  assert.equal(ev('hash("abc")'), 96354);
});
