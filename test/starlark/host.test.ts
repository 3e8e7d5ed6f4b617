import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileModule, callFunction, fromJS, toJS, headersFromJS, structFromJS, StarlarkError, Dict, List, Float, repr } from '../../src/starlark/index.js';
import { call } from './helpers.js';

test('fromJS/toJS round-trip JSON data exactly', () => {
  const data = { a: 1, b: [true, null, 'x', 1.5], c: { z: 1, y: 2 }, big: 2n ** 70n, neg: -3, f: 2.0e-3, u: 'Ω' };
  const v = fromJS(data);
  assert.ok(v instanceof Dict);
  assert.deepEqual(toJS(v), data);
  assert.equal(repr(fromJS({ c: { z: 1, y: 2 } })), '{"c": {"z": 1, "y": 2}}'); // insertion order
  assert.equal(fromJS(3), 3);
  assert.ok(fromJS(3.5) instanceof Float);
  assert.equal(fromJS(2 ** 60), 2n ** 60n); // an integral number beyond 2^53 becomes an exact int
  assert.equal(toJS(fromJS(12345678901234567890n)), 12345678901234567890n);
  assert.deepEqual(toJS(fromJS(new Set([1, 2]))), [1, 2]);
  assert.deepEqual(toJS(fromJS(new Map([['k', 'v']]))), { k: 'v' });
  assert.deepEqual(toJS(fromJS(new Uint8Array([1, 255]))), new Uint8Array([1, 255]));
  assert.ok(fromJS([1]) instanceof List);
});

test('toJS: tuples and sets become arrays; functions are refused', () => {
  const { program } = compileModule('t = (1, (2, 3))\ns = set([3, 1])\ndef f(): pass\n', 'h.star');
  const mod = program!.init();
  assert.deepEqual(toJS(mod.get('t')!), [1, [2, 3]]);
  assert.deepEqual(toJS(mod.get('s')!), [3, 1]);
  assert.throws(
    () => toJS(mod.get('f')!),
    (e: unknown) => e instanceof StarlarkError && e.kind === 'convert',
  );
});

test('compile once, init, call many times with separate budgets', () => {
  const { program, errors } = compileModule('def execute(ctx):\n    return {"n": ctx["n"] * 2, "env": env}\n', 'm.star', { predeclared: ['env'] });
  assert.deepEqual(errors, []);
  const mod = program!.init({ predeclared: { env: fromJS('prod') } });
  for (let i = 0; i < 100; i++) {
    assert.deepEqual(toJS(callFunction(mod, 'execute', [fromJS({ n: i })], { maxSteps: 1000 })), { n: i * 2, env: 'prod' });
  }
  assert.throws(() => callFunction(mod, 'missing', []), /has no global missing/);
});

test('globals are frozen, including values passed in', () => {
  const { program } = compileModule('cfg = {"k": [1]}\ndef mutate():\n    cfg["k"].append(2)\n', 'f.star');
  const mod = program!.init();
  assert.throws(() => callFunction(mod, 'mutate', []), /cannot append to frozen list/);
});

test('headers dict: case-insensitive [], .get and in; keys keep their spelling', () => {
  const { program } = compileModule(
    `
def execute(h):
    return {
        "ct": h["content-type"],
        "CT": h["CONTENT-TYPE"],
        "get": h.get("X-Request-Id", "none"),
        "has": "Accept" in h,
        "not": "x-missing" in h,
        "keys": list(h.keys()),
        "cookie": h["set-cookie"],
    }
`,
    'h.star',
  );
  const mod = program!.init();
  const h = headersFromJS({ 'Content-Type': 'application/json', accept: '*/*', 'Set-Cookie': ['a=1', 'b=2'] });
  assert.deepEqual(toJS(callFunction(mod, 'execute', [h])), {
    ct: 'application/json',
    CT: 'application/json',
    get: 'none',
    has: true,
    not: false,
    keys: ['Content-Type', 'accept', 'Set-Cookie'],
    cookie: ['a=1', 'b=2'],
  });
  // a headers dict can sit inside converted data
  const ctx = fromJS({ request: { headers: h } });
  assert.ok(toJS(ctx));
});

test('struct values for read-only request objects', () => {
  const { program } = compileModule('def execute(req):\n    return req.method + " " + req.path\n', 's.star');
  const mod = program!.init();
  assert.equal(toJS(callFunction(mod, 'execute', [structFromJS({ method: 'GET', path: '/x' })])), 'GET /x');
});

test('errors from calls carry the backtrace and kind', () => {
  const { program } = compileModule('def execute(ctx):\n    return ctx["missing"]\n', 'e.star');
  const mod = program!.init();
  try {
    callFunction(mod, 'execute', [fromJS({})]);
    assert.fail('expected an error');
  } catch (e) {
    assert.ok(e instanceof StarlarkError);
    assert.equal(e.kind, 'eval');
    assert.equal(e.msg, 'key "missing" not in dict');
    assert.match(e.backtrace(), /e\.star:2:15: in execute\nError: key "missing" not in dict/);
  }
});

test('functionInfo describes global functions for boot-time checks', () => {
  const { program } = compileModule('def execute(ctx, opt=1, *rest, k, **kw):\n    pass\nx = 1\n', 'fi.star');
  const mod = program!.init();
  assert.deepEqual(mod.functionInfo('execute'), {
    name: 'execute',
    params: ['ctx', 'opt', 'k', 'rest', 'kw'],
    required: 1,
    keywordOnly: 1,
    varargs: true,
    kwargs: true,
  });
  assert.equal(mod.functionInfo('x'), null);
  assert.equal(mod.functionInfo('nope'), null);
});

test('toJS makes every key an own property: __proto__ is data, never a prototype', () => {
  const out = toJS(call('def f():\n    return {"__proto__": {"admin": True}, "constructor": 1}\n', 'f', [])) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.deepEqual(Object.keys(out), ['__proto__', 'constructor']);
  assert.equal((out as { admin?: unknown }).admin, undefined);
  assert.equal(JSON.stringify(out), '{"__proto__":{"admin":true},"constructor":1}');
  assert.equal(({} as { admin?: unknown }).admin, undefined);
});

test('toJS refuses cyclic, too deep and exponentially shared values with a convert error', () => {
  const convertError = (e: unknown) => e instanceof StarlarkError && e.kind === 'convert';
  assert.throws(() => toJS(call('def f():\n    x = []\n    x.append(x)\n    return x\n', 'f', [])), convertError);
  assert.throws(() => toJS(call('def f():\n    x = {}\n    x["a"] = {"b": x}\n    return x\n', 'f', [])), convertError);
  assert.throws(() => toJS(call('def f():\n    x = []\n    for i in range(100000):\n        x = [x]\n    return x\n', 'f', [])), convertError);
  // 2^40 leaves from 40 lines of sharing: refused promptly, not an out-of-memory crash
  const t0 = performance.now();
  assert.throws(() => toJS(call('def f():\n    a = ["y"]\n    for i in range(40):\n        a = [a, a]\n    return a\n', 'f', [])), convertError);
  // A liveness bound: 2^40 leaves would never finish; a loaded machine may take seconds for the rest.
  assert.ok(performance.now() - t0 < 30_000);
  // the same for input: a deeply nested request body is a clean error, not a RangeError
  let deep: unknown = [];
  for (let i = 0; i < 200_000; i++) deep = [deep];
  assert.throws(() => fromJS({ body: deep }), convertError);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.throws(() => fromJS(cyclic), convertError);
});

test('toJS refuses two dict keys with the same JS spelling instead of dropping one', () => {
  assert.throws(
    () => toJS(call('def f():\n    return {1: "int", "1": "str"}\n', 'f', [])),
    (e: unknown) => e instanceof StarlarkError && e.kind === 'convert' && /both "1"/.test(e.msg),
  );
  assert.throws(
    () => toJS(call('def f():\n    return {"1": "str", 1: "int"}\n', 'f', [])),
    (e: unknown) => e instanceof StarlarkError && e.kind === 'convert',
  );
  assert.deepEqual(toJS(call('def f():\n    return {1: "a", "b": 2, None: 3}\n', 'f', [])), { 1: 'a', b: 2, null: 3 });
});
