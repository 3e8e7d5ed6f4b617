// Issue 15, class 1: size limits that shared references, indentation and huge ranges slipped past.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callFunction, compileModule, DEFAULT_CONVERT_LIMITS, StarlarkError, toJS } from '../../src/starlark/index.js';
import { ev, fails } from './helpers.js';

function result(src: string): ReturnType<typeof callFunction> {
  const { program, errors } = compileModule(src, 'result.star');
  assert.deepEqual(errors, []);
  return callFunction(program!.init(), 'execute', [null], { timeoutMs: 10_000 });
}

test('limits: a result holding 16 references to a 16 MiB string is refused, counted once per reference', () => {
  // the review's reproduction: it became a 256 MB response
  const value = result('def execute(ctx):\n    s = "x" * (16 * 1024 * 1024 - 16)\n    return [s] * 16\n');
  const limits = { ...DEFAULT_CONVERT_LIMITS, maxBytes: 16 << 20 };
  assert.throws(
    () => toJS(value, limits),
    (e: unknown) =>
      e instanceof StarlarkError && e.kind === 'size' && /more than 16777216 bytes of text \(a shared value counts once per reference\)/.test(e.msg),
  );
  // one reference fits
  const one = result('def execute(ctx):\n    return ["x" * (16 * 1024 * 1024 - 16)]\n');
  assert.equal((toJS(one, limits) as string[])[0]!.length, (16 << 20) - 16);
});

test('limits: shared containers and dict keys count per reference too', () => {
  const limits = { ...DEFAULT_CONVERT_LIMITS, maxBytes: 1 << 20 };
  const rows = result('def execute(ctx):\n    row = {"k" * 1000: "v" * 1000}\n    return [row] * 1000\n');
  assert.throws(
    () => toJS(rows, limits),
    (e: unknown) => e instanceof StarlarkError && e.kind === 'size',
  );
  const small = result('def execute(ctx):\n    row = {"k": "v"}\n    return [row] * 1000\n');
  assert.equal((toJS(small, limits) as unknown[]).length, 1000);
});

test('limits: json.encode counts a shared value once per reference', () => {
  const e = fails('s = "x" * (4 * 1024 * 1024)\nx = json.encode([s] * 8)\n', { timeoutMs: 10_000 });
  assert.equal(e.kind, 'size');
  assert.match(e.msg, /json.encode: .*string size limit exceeded/);
  const nested = fails('a = [[0] * 1000] * 1000\nb = json.encode([a] * 100)\n', { timeoutMs: 10_000, limits: { maxStringBytes: 1 << 20 } });
  assert.equal(nested.kind, 'size');
});

test('limits: json.indent honours the string limit', () => {
  // a short, deeply nested text indents to far more than it holds
  const deep = `"${'['.repeat(200)}${']'.repeat(200)}"`;
  const e = fails(`x = json.indent(${deep}, indent = "${'x'.repeat(1000)}")\n`, { limits: { maxStringBytes: 1 << 20 } });
  assert.equal(e.kind, 'size');
  assert.match(e.msg, /json.indent: string size limit exceeded/);
  const viaEncode = fails(`x = json.encode_indent(${'['.repeat(80)}${']'.repeat(80)}, indent = "${'y'.repeat(5000)}")\n`, {
    limits: { maxStringBytes: 1 << 20 },
  });
  assert.equal(viaEncode.kind, 'size');
  // within the limit it is Go's json.Indent
  assert.equal(ev('json.indent(\'{"a":[1,2]}\', indent = "  ")'), '{\n  "a": [\n    1,\n    2\n  ]\n}');
});

test('limits: range() lengths are exact past 2^53 or refused with a correct message', () => {
  assert.equal(ev('len(range(0, 9007199254740991, 3))'), 3002399751580331);
  assert.equal(ev('range(-9007199254740991, 9007199254740991, 3)[-1]'), 9007199254740989);
  assert.equal(ev('range(9007199254740992, 9007199254740995)[2]'), 9007199254740994n);
  assert.equal(ev('9007199254740993 in range(9007199254740992, 9007199254740995)'), true);
  assert.equal(ev('9007199254740993 in range(9007199254740992, 9007199254740995, 2)'), false);
  assert.deepEqual(ev('list(range(1 << 62, (1 << 62) + 3))'), [4611686018427387904n, 4611686018427387905n, 4611686018427387906n]);
  assert.deepEqual(ev('list(range(0, 1 << 62, 1 << 60)[::-1])'), [3n << 60n, 2n << 60n, 1n << 60n, 0]);
  assert.deepEqual(ev('[x for x in range((1 << 62) + 1, 1 << 62, -1)]'), [(1n << 62n) + 1n]);
  const tooLong = fails('x = len(range(-9007199254740991, 9007199254740991))\n');
  assert.match(tooLong.msg, /range: length 18014398509481982 exceeds the limit of 9007199254740991 elements/);
  assert.match(fails('x = range(1 << 63)\n').msg, /9223372036854775808 out of range \(want value in signed 64-bit range\)/);
  // before: 2^53 itself was refused as "out of signed 64-bit range", and lengths rounded
  assert.equal(ev('len(range(9007199254740992, 9007199254741000))'), 8);
});
