// Each run (init or call) executes on its own Thread: budget, clock, depth,
// limits and hooks. A built-in that calls back into Starlark uses the caller's
// thread; a host function that starts another run gets a fresh one and leaves
// the caller's untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Builtin, callFunction, compileModule, StarlarkError, toJS, type RunOptions, type Thread, type Value } from '../../src/starlark/index.js';
import { callValue } from '../../src/starlark/runtime.js';
import { fails, run } from './helpers.js';

function module(src: string, predeclared: Record<string, Value> = {}, fileOptions = {}) {
  const { program, errors } = compileModule(src, 'thread.star', { predeclared: Object.keys(predeclared), fileOptions });
  if (!program) throw new Error(errors.map((e) => e.message).join('\n'));
  return program.init({ predeclared });
}

function thrown(f: () => unknown): StarlarkError {
  try {
    f();
  } catch (e) {
    if (e instanceof StarlarkError) return e;
    throw e;
  }
  throw new Error('expected a StarlarkError');
}

test('a key function called back by sorted() charges the same step budget', () => {
  const src = 'def slow(x):\n    for i in range(100):\n        pass\n    return x\ndef f():\n    return sorted(range(100), key=slow)\n';
  const mod = module(src);
  // 100 key calls of ~100 steps each: beyond a 5000-step budget only if the callbacks are charged to the call
  const e = thrown(() => callFunction(mod, 'f', [], { maxSteps: 5000 }));
  assert.equal(e.kind, 'steps');
  assert.match(e.backtrace(), /in slow/);
  assert.equal((toJS(callFunction(mod, 'f', [], { maxSteps: 20_000 })) as unknown[]).length, 100);
});

test('call depth is counted across built-ins that call back', () => {
  const src = 'def f(n):\n    return 0 if n == 0 else sorted([n], key=lambda x: f(x - 1))[0]\n';
  const mod = module(src);
  assert.equal(callFunction(mod, 'f', [10], { maxDepth: 100 }), 10);
  // each level is f plus the lambda: 2 Starlark frames
  const e = thrown(() => callFunction(mod, 'f', [60], { maxDepth: 100 }));
  assert.equal(e.kind, 'stack');
});

test('print in a callback goes to the hook of the run that called it', () => {
  const lines: string[] = [];
  run('def k(x):\n    print("key", x)\n    return x\nv = sorted([2, 1], key=k)\n', { print: (s) => lines.push(s) });
  assert.deepEqual(lines, ['key 2', 'key 1']);
});

test('a host built-in gets the calling thread, and can call back on it', () => {
  let seen: Thread | undefined;
  const apply = new Builtin('apply', (args, _kwargs, _self, th) => {
    seen = th;
    return callValue(th, args[0]!, args.slice(1), null);
  });
  const mod = module('def spin(n):\n    for i in range(n):\n        pass\n    return n\ndef f(n):\n    return apply(spin, n)\n', { apply });
  assert.equal(callFunction(mod, 'f', [10]), 10);
  assert.ok(seen !== undefined && seen.steps > 10, 'the callback ran on the calling thread');
  assert.equal(thrown(() => callFunction(mod, 'f', [10_000], { maxSteps: 1000 })).kind, 'steps');
});

test('a host built-in can cancel the run it is called from', () => {
  const stop = new Builtin('stop', (_args, _kwargs, _self, th) => {
    th.cancel('stopped by the host');
    return null;
  });
  const mod = module('def f():\n    stop()\n    for i in range(10):\n        pass\n    return 1\n', { stop });
  const e = thrown(() => callFunction(mod, 'f', []));
  assert.equal(e.kind, 'cancelled');
  assert.match(e.msg, /stopped by the host/);
  // the next call runs on a fresh thread: nothing of the cancelled one is left
  const ok = module('def f():\n    return 1\n');
  assert.equal(callFunction(ok, 'f', []), 1);
});

test("a run started from inside a built-in has its own thread and leaves the caller's intact", () => {
  const inner = module('def g():\n    print("inner")\n    return "x" * 50\ndef spin():\n    while True:\n        pass\n');
  const innerLines: string[] = [];
  const tight: RunOptions = { maxSteps: 100, limits: { maxStringBytes: 10 }, print: (s) => innerLines.push(s) };
  const nested = new Builtin('nested', (args) => {
    const which = args[0] as string;
    try {
      return callFunction(inner, which, [], tight);
    } catch (e) {
      return e instanceof StarlarkError ? e.kind : 'other';
    }
  });
  const outerLines: string[] = [];
  const outer = module(
    'def f():\n    a = nested("g")\n    b = nested("spin")\n    print("outer")\n    for i in range(1000):\n        pass\n    return [a, b, len("y" * 1000)]\n',
    { nested },
  );
  const r = toJS(callFunction(outer, 'f', [], { maxSteps: 10_000, print: (s) => outerLines.push(s) }));
  // the inner runs hit their own limits (size, steps), while the outer run keeps its budget, its size limits and its print hook
  assert.deepEqual(r, ['size', 'steps', 1000]);
  assert.deepEqual(innerLines, ['inner']);
  assert.deepEqual(outerLines, ['outer']);
});

test('no-recursion dialect: active functions are tracked per thread, and a failed call leaves no trace', () => {
  const reenter = new Builtin('reenter', (args, _kwargs, _self, th) => callValue(th, args[0]!, [], null));
  const noRec = { recursion: false };
  const mod = module('def f():\n    return reenter(f)\ndef g():\n    return 1\n', { reenter }, noRec);
  for (let i = 0; i < 2; i++) assert.match(thrown(() => callFunction(mod, 'f', [])).msg, /function f called recursively/);
  assert.equal(callFunction(mod, 'g', []), 1);
  // a fresh run from inside the built-in is another thread, so f active there is not a recursion
  let self: ReturnType<typeof module> | undefined;
  const fresh = new Builtin('fresh', () => callFunction(self!, 'f', [1]));
  self = module('def f(n):\n    return n if n > 0 else fresh() + 1\n', { fresh }, noRec);
  assert.equal(callFunction(self, 'f', [0]), 2);
});

test('size limits and the allocation budget belong to the run', () => {
  // each call gets the whole allocation budget again
  for (let i = 0; i < 3; i++) {
    assert.equal(run('x = len("ab" * 5000000)\n', { limits: { maxAllocBytes: 16 << 20 } }).x, 10_000_000);
  }
  assert.equal(fails('x = "ab" * 5000000\ny = "cd" * 5000000\n', { limits: { maxAllocBytes: 16 << 20 } }).kind, 'size');
});
