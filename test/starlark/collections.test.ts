import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ev, fails, run } from './helpers.js';

test('lists', () => {
  const g = run(`
def f():
    l = [3, 1, 2]
    l.append(4)
    l.extend((5, 6))
    l.insert(0, 0)
    l.remove(6)
    p = l.pop()
    l += [9]
    return l, p, l.index(9), sorted(l, reverse=True), [x * 2 for x in l if x % 2]
r = f()
`);
  assert.deepEqual(g.r, [[0, 3, 1, 2, 4, 9], 5, 5, [9, 4, 3, 2, 1, 0], [6, 2, 18]]);
  assert.deepEqual(ev('[1, 2] * 2 + [3]'), [1, 2, 1, 2, 3]);
  assert.deepEqual(ev('sorted(["bb", "a", "ccc"], key=len)'), ['a', 'bb', 'ccc']);
  assert.match(fails('x = [].pop()').msg, /pop: index -1 out of range: empty list/);
});

test('dicts keep insertion order', () => {
  const g = run(`
d = {"b": 1, "a": 2}
d["c"] = 3
d["b"] = 10
e = dict(d, z=0)
keys = list(d.keys())
items = d.items()
popped = e.pop("a")
u = {"x": 1} | {"y": 2, "x": 3}
dc = {k: v for k, v in [("p", 1), ("q", 2)]}
`);
  assert.deepEqual(g.keys, ['b', 'a', 'c']);
  assert.deepEqual(g.items, [
    ['b', 10],
    ['a', 2],
    ['c', 3],
  ]);
  assert.deepEqual(g.e, { b: 10, c: 3, z: 0 });
  assert.equal(g.popped, 2);
  assert.deepEqual(g.u, { x: 3, y: 2 });
  assert.deepEqual(g.dc, { p: 1, q: 2 });
  assert.match(fails('x = {"a": 1}["b"]').msg, /key "b" not in dict/);
  assert.match(fails('x = {"a": 1, "a": 2}').msg, /duplicate key: "a"/);
  assert.deepEqual(ev('{"a": 1}.get("b", 5)'), 5);
  assert.deepEqual(ev('(lambda d: (d.setdefault("k", []).append(1), d)[1])({})'), { k: [1] });
});

test('sets', () => {
  assert.deepEqual(ev('sorted(set([1, 2]) | set([2, 3]))'), [1, 2, 3]);
  assert.deepEqual(ev('sorted(set([1, 2]) & set([2, 3]))'), [2]);
  assert.deepEqual(ev('sorted(set([1, 2]) - set([2, 3]))'), [1]);
  assert.deepEqual(ev('sorted(set([1, 2]) ^ set([2, 3]))'), [1, 3]);
  assert.deepEqual(ev('[2 in set([1, 2]), set([1]) < set([1, 2]), set([1, 2]).issubset([1, 2, 3])]'), [true, true, true]);
});

test('tuples and unpacking', () => {
  const g = run(`
a, (b, c), [d] = 1, (2, 3), [4]
t = (1,) + (2, 3)
def f():
    x, y = "xy".elems()
    return y + x
s = f()
`);
  assert.deepEqual([g.a, g.b, g.c, g.d, g.t, g.s], [1, 2, 3, 4, [1, 2, 3], 'yx']);
  assert.match(fails('a, b = [1, 2, 3]').msg, /too many values to unpack \(got 3, want 2\)/);
  assert.match(fails('a, b = 1').msg, /got int in sequence assignment/);
});

test('mutation during iteration is an error', () => {
  assert.match(
    fails(`
def f():
    l = [1, 2]
    for x in l:
        l.append(x)
f()
`).msg,
    /append: cannot append to list during iteration/,
  );
  assert.match(
    fails(`
def f():
    d = {"a": 1}
    for k in d:
        d["b"] = 2
f()
`).msg,
    /cannot insert into hash table during iteration/,
  );
});

test('module globals are frozen after execution', () => {
  const src = `
l = [1]
d = {}
def add():
    l.append(2)
def put():
    d["k"] = 1
`;
  const { compileModule, callFunction } = awaitImport();
  const { program } = compileModule(src, 'frozen.star');
  const mod = program!.init();
  assert.throws(() => callFunction(mod, 'add', []), /cannot append to frozen list/);
  assert.throws(() => callFunction(mod, 'put', []), /cannot insert into frozen hash table/);
});

import * as api from '../../src/starlark/index.js';
function awaitImport() {
  return api;
}

test('set.isdisjoint (spec)', () => {
  assert.deepEqual(ev('[set([1, 2]).isdisjoint([3]), set([1, 2]).isdisjoint((2, 3))]'), [true, false]);
});
