/**
 * The compiled fast calls of strip, lower, upper, append and get (src/starlark/method-calls.ts) give
 * what the ordinary method call gives, in every case they hand over: the same values, the same
 * errors, the receiver and arguments evaluated once, the budget charged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callFunction, compileModule, headersFromJS, StarlarkError, toJS, type Value } from '../../src/starlark/index.js';

function module(src: string) {
  const { program, errors } = compileModule(src, 'calls.star');
  assert.ok(program, errors.map((e) => e.message).join('\n'));
  return program.init();
}

function call(src: string, fn: string, args: Value[] = [], maxSteps = 1e6): unknown {
  return toJS(callFunction(module(src), fn, args, { maxSteps }));
}

function failure(src: string, fn: string, args: Value[] = []): StarlarkError {
  try {
    callFunction(module(src), fn, args);
  } catch (e) {
    if (e instanceof StarlarkError) return e;
    throw e;
  }
  throw new Error(`expected ${fn} to fail`);
}

test('strip, lower and upper: the same text as the bound method, ASCII or not, short or long', () => {
  const texts = ['  Alpha ', '', '  ', 'MiXeD', '\tTab\n', ' Ωmega ', 'STRASSE straße', '\u00a0nbsp\u00a0', 'x'.repeat(3000), ` ${'É'.repeat(600)} `];
  const src = `
def fast(s):
    return [s.strip(), s.lower(), s.upper()]

def bound(s):
    return [getattr(s, "strip")(), getattr(s, "lower")(), getattr(s, "upper")()]
`;
  for (const text of texts) {
    assert.deepEqual(call(src, 'fast', [text]), call(src, 'bound', [text]), JSON.stringify(text.slice(0, 20)));
  }
});

test('append: frozen lists, lists being iterated and long lists answer as the bound method does', () => {
  const frozen = `
L = [1]

def fast():
    L.append(2)

def bound():
    getattr(L, "append")(2)
`;
  assert.equal(failure(frozen, 'fast').msg, failure(frozen, 'bound').msg);
  assert.match(failure(frozen, 'fast').msg, /frozen list/);
  assert.match(failure(frozen, 'fast').backtrace(), /calls\.star:5:13: in fast/);

  const iterating = `
def fast():
    l = [1, 2]
    for x in l:
        l.append(x)

def bound():
    l = [1, 2]
    for x in l:
        getattr(l, "append")(x)
`;
  assert.equal(failure(iterating, 'fast').msg, 'append: cannot append to list during iteration');
  assert.equal(failure(iterating, 'bound').msg, failure(iterating, 'fast').msg);

  const long = `
def fill(n):
    l = []
    for i in range(n):
        l.append(i)
    return len(l)
`;
  assert.equal(call(long, 'fill', [70_000], 1e7), 70_000);
  // Past 65,536 elements the element limit is checked again (methods/collections.ts).
  assert.throws(
    () => callFunction(module(long), 'fill', [200_000], { maxSteps: 1e7, limits: { maxElements: 100_000 } }),
    (e: unknown) => e instanceof StarlarkError && e.kind === 'size' && /collection size limit/.test(e.msg),
  );
});

test('get: string and other keys, defaults, case-insensitive headers, unhashable keys', () => {
  const src = `
def fast(d):
    return [d.get("a"), d.get("zz"), d.get("zz", "dflt"), d.get(1), d.get(2, "two")]

def bound(d):
    g = getattr(d, "get")
    return [g("a"), g("zz"), g("zz", "dflt"), g(1), g(2, "two")]

def headers(h):
    return [h.get("content-type"), h.get("Content-Type"), h.get("X-None", "none")]

def unhashable(d):
    return d.get([1])
`;
  const dict = module('d = {"a": 1, 1: "one"}\n').globals().get('d')!;
  assert.deepEqual(call(src, 'fast', [dict]), [1, null, 'dflt', 'one', 'two']);
  assert.deepEqual(call(src, 'fast', [dict]), call(src, 'bound', [dict]));
  assert.deepEqual(call(src, 'headers', [headersFromJS({ 'content-type': 'application/json' })]), ['application/json', 'application/json', 'none']);
  assert.match(failure(src, 'unhashable', [dict]).msg, /unhashable/);
});

test('the receiver and the arguments are evaluated once, on the fast path and off it', () => {
  const src = `
def counted(value):
    calls = []
    def recv():
        calls.append(1)
        return value
    def key():
        calls.append(1)
        return 1
    recv().strip()
    recv().lower()
    recv().get(key()) if type(value) == "dict" else None
    recv().get(key(), 0) if type(value) == "dict" else None
    return len(calls)
`;
  const dict = module('d = {1: 2}\n').globals().get('d')!;
  assert.equal(call(src, 'counted', ['short']), 2);
  assert.equal(call(src, 'counted', ['long'.repeat(500)]), 2);
  const notText = failure(src, 'counted', [5]);
  assert.match(notText.msg, /int has no \.strip field or method/);
  const withDict = failure(src, 'counted', [dict]);
  assert.match(withDict.msg, /dict has no \.strip field or method/);
});

test('a long string is still charged to the budget by strip, lower and upper', () => {
  for (const method of ['strip', 'lower', 'upper']) {
    const src = `def f(s):\n    s.${method}()\n    return True\n`;
    assert.throws(
      () => callFunction(module(src), 'f', ['a'.repeat(2 * 1024 * 1024)], { maxSteps: 1000 }),
      (e: unknown) => e instanceof StarlarkError && e.kind === 'steps',
      method,
    );
    assert.equal(call(src, 'f', ['a'.repeat(1000)], 1000), true, method);
  }
});
