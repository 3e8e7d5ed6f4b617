import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fails, run } from './helpers.js';

test('defaults, keyword-only parameters, *args and **kwargs', () => {
  const g = run(`
def f(a, b=2, *args, c, d=4, **kw):
    return [a, b, args, c, d, kw]
r1 = f(1, c=3)
r2 = f(1, 5, 6, 7, c=3, e=8)
r3 = f(*[1, 2], **{"c": 9, "z": 0})
def g(*, k=1):
    return k
r4 = g(k=5)
`);
  assert.deepEqual(g.r1, [1, 2, [], 3, 4, {}]);
  assert.deepEqual(g.r2, [1, 5, [6, 7], 3, 4, { e: 8 }]);
  assert.deepEqual(g.r3, [1, 2, [], 9, 4, { z: 0 }]);
  assert.equal(g.r4, 5);
});

test('argument errors name the function', () => {
  assert.match(fails('def f(a): pass\nf()').msg, /function f missing 1 argument \(a\)/);
  assert.match(fails('def f(a): pass\nf(1, 2)').msg, /function f accepts 1 positional argument \(2 given\)/);
  assert.match(fails('def f(a): pass\nf(1, a=2)').msg, /function f got multiple values for parameter "a"/);
  assert.match(fails('def f(a): pass\nf(b=2)').msg, /function f got an unexpected keyword argument "b"/);
  assert.match(fails('def f(*, a): pass\nf()').msg, /function f missing 1 argument \(a\)/);
  assert.match(fails('x = len(1, 2)').msg, /len: got 2 arguments, want 1/);
});

test('closures capture variables, lambdas, nested defs', () => {
  const g = run(`
def counter():
    n = [0]
    def inc():
        n[0] += 1
        return n[0]
    return inc
c = counter()
def use():
    c(); c()
    return c()
r = use()
adders = [(lambda x, i=i: x + i) for i in range(3)]
def apply():
    return [a(10) for a in adders]
r2 = apply()
def outer():
    y = 1
    def mid():
        def inner():
            return y + 1
        return inner()
    return mid()
r3 = outer()
`);
  assert.equal(g.r, 3);
  assert.deepEqual(g.r2, [10, 11, 12]);
  assert.equal(g.r3, 2);
});

test('recursion is allowed (like starlark-go with -recursion)', () => {
  const g = run(`
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
r = fib(15)
`);
  assert.equal(g.r, 610);
});

test('functions are values; builtins have names', () => {
  const g = run('def f(): pass\nn = str(f)\nm = str(len)\nh = hasattr("x", "upper")\ng = getattr("x", "upper")()\n');
  assert.deepEqual([g.n, g.m, g.h, g.g], ['<function f>', '<built-in function len>', true, 'X']);
});

test('keyword-only parameters cannot be passed positionally', () => {
  assert.match(fails('def f(a, *, b=1): pass\nf(1, 2)').msg, /function f accepts 1 positional argument \(2 given\)/);
});

test('non-ASCII keyword names round-trip between identifiers and dict keys', () => {
  const g = run('def f(**kw):\n    return kw\ndef h(Ω):\n    return Ω\nr = f(Ω=1)["Ω"]\ns = h(**{"Ω": 2})\nt = dict(Ω=3)["Ω"]\nu = "{Ω}".format(Ω=4)\n');
  assert.deepEqual([g.r, g.s, g.t, g.u], [1, 2, 3, '4']);
});
