import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileModule, callFunction, fromJS, StarlarkError } from '../../src/starlark/index.js';
import { fails, run } from './helpers.js';
import { cpuTimer } from '../cpu-time.js';

const loopForever = `
def spin():
    n = 0
    while True:
        n += 1
`;

test('step budget: a runaway loop stops with a typed error', () => {
  const { program } = compileModule(loopForever, 'spin.star');
  const mod = program!.init();
  const cpuMs = cpuTimer();
  const err = assert.throws(
    () => callFunction(mod, 'spin', [], { maxSteps: 10_000 }),
    (e: unknown) => {
      assert.ok(e instanceof StarlarkError);
      assert.equal(e.kind, 'steps');
      assert.match(e.msg, /too many steps/);
      assert.match(e.backtrace(), /spin\.star:4:5: in spin/);
      return true;
    },
  );
  void err;
  assert.ok(cpuMs() < 1000);
});

test('default step budget is 1,000,000 per call', () => {
  const { program } = compileModule(loopForever, 'spin.star');
  const mod = program!.init();
  assert.throws(
    () => callFunction(mod, 'spin', [], { timeoutMs: 60_000 }),
    (e: unknown) => e instanceof StarlarkError && e.kind === 'steps' && /1000000/.test(e.msg),
  );
});

test('wall-clock timeout', () => {
  const { program } = compileModule(loopForever, 'spin.star');
  const mod = program!.init();
  const t0 = performance.now();
  assert.throws(
    () => callFunction(mod, 'spin', [], { maxSteps: Infinity, timeoutMs: 50 }),
    (e: unknown) => e instanceof StarlarkError && e.kind === 'timeout',
  );
  const took = performance.now() - t0;
  // The upper bound only tells a time-out from a loop that never stops; a loaded machine may stall.
  assert.ok(took >= 45 && took < 10_000, `took ${took} ms`);
});

test('size limits on strings and collections', () => {
  const e1 = fails('def f():\n    s = "x"\n    for i in range(40):\n        s = s + s\nf()\n');
  assert.equal(e1.kind, 'size');
  const e2 = fails('x = "ab" * 100000000');
  assert.equal(e2.kind, 'size');
  const e3 = fails('def f():\n    l = []\n    for i in range(2000000):\n        l.append(i)\nf()\n', { maxSteps: 1e8 });
  assert.equal(e3.kind, 'size');
  const e4 = fails('x = [0] * 10 * 1000 * 1000', { limits: { maxElements: 1000 } });
  assert.equal(e4.kind, 'size');
  const e5 = fails('x = ",".join(["abc"] * 1000)', { limits: { maxStringBytes: 100 } });
  assert.equal(e5.kind, 'size');
});

test('bulk allocation budget per run bounds total memory', () => {
  // each value is within the per-value limit, but together they exceed the run's budget
  const e = fails('x = [("x" * 5000000) for i in range(100)]\n', { maxSteps: 1e9 });
  assert.equal(e.kind, 'size');
  assert.match(e.msg, /allocation limit exceeded/);
  // building a string piece by piece is charged for the new bytes only
  assert.equal(run('def f():\n    s = ""\n    for i in range(100000):\n        s += "0123456789"\n    return len(s)\nx = f()\n').x, 1000000);
});

test('deep recursion becomes a Starlark error, never a JS crash', () => {
  const src = 'def f(n):\n    return f(n + 1)\nx = f(0)\n';
  const e1 = fails(src);
  assert.equal(e1.kind, 'stack');
  assert.match(e1.msg, /Starlark stack overflow/);
  // even with an absurd depth limit, the JS RangeError is converted
  const e2 = fails(src, { maxDepth: 10_000_000, maxSteps: 1e9 });
  assert.equal(e2.kind, 'stack');
  // moderate recursion works
  assert.equal(run('def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\nx = f(300)\n').x, 300);
});

test('no I/O: load is refused unless the host supplies a loader', () => {
  const e = fails('load("other.star", "x")\n');
  assert.match(e.msg, /load not implemented by this application/);
  const g = run('load("lib.star", "y", z="w")\nv = y + z\n', {
    load: (m) =>
      new Map([
        ['y', m],
        ['w', '!'],
      ]),
  });
  assert.equal(g.v, 'lib.star!');
  assert.match(fails('load("lib.star", "nope")\n', { load: () => new Map() }).msg, /load: name nope not found in module lib.star/);
});

test('print goes to the host callback only', () => {
  const lines: string[] = [];
  run('print("a", 1, [2], sep="|")\nprint("Ω")\n', { print: (s) => lines.push(s) });
  assert.deepEqual(lines, ['a|1|[2]', 'Ω']);
});

test('fail() is a typed error with the message', () => {
  const e = fails('fail("bad", 42)');
  assert.equal(e.kind, 'fail');
  assert.equal(e.msg, 'fail: bad 42');
});

test('materialising huge ranges and printing huge values are size errors', () => {
  assert.equal(fails('x = list(range(1000000000))').kind, 'size');
  assert.equal(fails('x = sorted(range(1000000000))').kind, 'size');
  const e = fails('a = [0] * 1000\nb = [a] * 1000\nc = [b] * 1000\nx = str(c)\n', { timeoutMs: 60_000 }); // the size limit, not the clock
  assert.equal(e.kind, 'size');
  assert.equal(run('x = len(range(1000000000))').x, 1000000000);
});

test('expensive built-ins are charged to the budget, so the clock is consulted', () => {
  const src = 'def f():\n    l = list(range(200000))\n    for i in range(100000):\n        sorted(l)\nf()\n';
  const t0 = performance.now();
  const e = fails(src, { maxSteps: Infinity, timeoutMs: 200 });
  assert.equal(e.kind, 'timeout');
  // Unchecked, the loop would sort for hours; the bound leaves room for a stalled machine.
  assert.ok(performance.now() - t0 < 10_000);
  assert.equal(fails(src, { timeoutMs: 60_000 }).kind, 'steps'); // default budget of 1M steps
});

test('load with non-ASCII names', () => {
  const g = run('load("mød.star", "Ω", alias="ß")\nv = Ω + alias\n', {
    load: (m) =>
      new Map([
        ['Ω', fromJS(m)],
        ['ß', '!'],
      ]),
  });
  assert.equal(g.v, 'mød.star!');
});

test('ints are capped in size: repeated squaring and huge numerals are size errors, promptly', () => {
  const cpuMs = cpuTimer();
  assert.equal(fails('def f():\n    x = 2\n    for i in range(40):\n        x = x * x\n    return x\ny = f()\n').kind, 'size');
  assert.equal(fails('x = int("9" * 1000000)\n').kind, 'size');
  assert.equal(fails('x = json.decode("9" * 1000000)\n').kind, 'size');
  assert.ok(cpuMs() < 1000);
  assert.equal(run('x = len(str(1 << 511))\n').x, 154);
});

test('str() of many references to one big string stops at the string size limit, promptly', () => {
  const cpuMs = cpuTimer();
  assert.equal(fails('x = ["a" * 1000000] * 1000\ny = str(x)\n').kind, 'size');
  assert.equal(fails('x = ["a" * 1000000] * 1000\ny = "%s" % (x,)\n').kind, 'size');
  assert.ok(cpuMs() < 2000);
});

test('split cannot build a list beyond the element limit', () => {
  assert.equal(fails('x = ("a," * 5000000).split(",")\n').kind, 'size');
});

test('methods of str are charged by the text they scan, however they are called', () => {
  const calls = {
    direct: 's.count("a")',
    bound: 'f = s.count\n    f("a")',
    argument: '"b".count(s)',
    'another method': 's.upper()',
    'by getattr': 'getattr(s, "count")("a")',
  };
  for (const [how, call] of Object.entries(calls)) {
    const { program } = compileModule(`def f(s):\n    ${call}\n    return True\n`, 'charged.star');
    const mod = program!.init();
    // One step per KiB scanned: 2 MiB is over a budget of 1000 steps (the string comes in as an
    // argument, so nothing else is charged for it); 512 bytes are not.
    assert.throws(
      () => callFunction(mod, 'f', ['a'.repeat(2 * 1024 * 1024)], { maxSteps: 1000 }),
      (e: unknown) => e instanceof StarlarkError && e.kind === 'steps',
      how,
    );
    assert.equal(callFunction(mod, 'f', ['a'.repeat(512)], { maxSteps: 1000 }), true, how);
  }
});
