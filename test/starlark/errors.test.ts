import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileModule, compileError } from '../../src/starlark/index.js';
import { compileErrors, fails } from './helpers.js';

test('syntax errors carry line and column', () => {
  const [e] = compileErrors('x = 1 +\n');
  assert.deepEqual([e!.line, e!.col, e!.message], [1, 8, 'got newline, want primary expression']);
  const [e2] = compileErrors('def f():\n  x = 1\n    y = 2\n');
  assert.equal(e2!.line, 3);
  assert.match(e2!.message, /got indent, want/);
  assert.match(compileErrors('s = "abc\n')[0]!.message, /unexpected newline in string/);
  assert.match(compileErrors('x = 0777\n')[0]!.message, /obsolete form of octal literal; use 0o777/);
  assert.match(compileErrors('a == b == c\n')[0]!.message, /== does not associate with ==/);
});

test('resolver errors: every one is reported, with positions', () => {
  const errs = compileErrors('x = 1\nx = 2\ny = undefined_name\ndef f():\n    return lenn([])\n');
  // like starlark-go, uses inside functions are resolved before top-level ones
  assert.deepEqual(
    errs.map((e) => [e.line, e.col]),
    [
      [2, 1],
      [5, 12],
      [3, 5],
    ],
  );
  assert.match(errs[0]!.message, /cannot reassign global x declared at test.star:1:1/);
  assert.match(errs[2]!.message, /undefined: undefined_name/);
  assert.match(errs[1]!.message, /undefined: lenn \(did you mean len\?\)/);
  assert.match(compileErrors('break\n')[0]!.message, /break not in a loop/);
  assert.match(compileErrors('def f(a, a): pass\n')[0]!.message, /duplicate parameter: a/);
  assert.match(compileErrors('f(x=1, 2)\n', ['f'])[0]!.message, /positional argument may not follow named/);
  assert.match(compileErrors('return 1\n')[0]!.message, /return statement not within a function/);
  const ce = compileError(compileModule('x = \n', 'a.star').errors);
  assert.equal(ce.kind, 'compile');
  assert.match(ce.backtrace(), /^a\.star:1:5: /);
});

test('runtime errors name the operation and types', () => {
  assert.equal(fails('x = {} + {}').msg, 'unknown binary op: dict + dict');
  assert.equal(fails('x = -"a"').msg, 'unknown unary op: - string');
  assert.equal(fails('x = 1()').msg, 'invalid call of non-function (int)');
  assert.equal(fails('x = [][0]').msg, 'index 0 out of range: empty list');
  assert.equal(fails('x = None.foo').msg, 'NoneType has no .foo field or method');
  assert.equal(fails('x = {}.gett').msg, 'dict has no .gett field or method (did you mean .get?)');
  assert.equal(fails('x = len(1)').msg, 'len: value of type int has no len');
  assert.equal(fails('def f():\n    return y\n    y = 1\nx = f()\n').msg, 'local variable y referenced before assignment');
});

test('backtraces list Starlark frames like starlark-go', () => {
  const e = fails('def g(x):\n    return x + {}\n\ndef f():\n    return g(1)\n\nf()\n');
  assert.deepEqual(
    e.callStack.map((f) => [f.name, f.pos?.line, f.pos?.col]),
    [
      ['<toplevel>', 7, 2],
      ['f', 5, 13],
      ['g', 2, 14],
    ],
  );
  assert.equal(
    e.backtrace(),
    [
      'Traceback (most recent call last):',
      '  test.star:7:2: in <toplevel>',
      '  test.star:5:13: in f',
      '  test.star:2:14: in g',
      'Error: unknown binary op: int + dict',
    ].join('\n'),
  );
  const f = fails('def check(v):\n    fail("negative:", v)\ncheck(-1)\n');
  assert.match(f.backtrace(), /test\.star:2:9: in check\nError in fail: fail: negative: -1$/);
  const s = fails('x = sorted([3, 1], key=lambda v: v + "")\n');
  assert.match(s.backtrace(), /<builtin>: in sorted\n {2}test\.star:1:36: in lambda\nError: unknown binary op: int \+ string/);
  assert.deepEqual(e.pos, { file: 'test.star', line: 2, col: 14 });
});

test('error messages embedding non-ASCII strings are readable text', () => {
  assert.equal(fails('x = {"a": 1}["Ω"]').msg, 'key "Ω" not in dict');
  assert.equal(fails('fail("héllo")').msg, 'fail: héllo');
});
