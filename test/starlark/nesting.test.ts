// Issue 15, class 5 (Starlark side): deeply nested source is a located diagnostic, fast, never a
// JS RangeError or an "internal error"; a program just within the limits compiles and runs, even
// at the deepest Starlark call depth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callFunction, compileModule, StarlarkError } from '../../src/starlark/index.js';

const NESTING = 100; // syntax/parser.ts MAX_NESTING
const CHAIN = 1000; // syntax/parser.ts MAX_CHAIN

/** The reproductions of the review, and their kin: source text beyond the limits. */
const beyond: Record<string, { src: string; message: RegExp }> = {
  'hundreds of [': { src: `x = ${'['.repeat(500)}${']'.repeat(500)}\n`, message: /nested too deeply \(more than 100 levels/ },
  'hundreds of (': { src: `x = ${'('.repeat(500)}1${')'.repeat(500)}\n`, message: /nested too deeply \(more than 100 levels/ },
  'hundreds of {': { src: `x = ${'{1: '.repeat(500)}1${'}'.repeat(500)}\n`, message: /nested too deeply \(more than 100 levels/ },
  'a few thousand chained +': { src: `x = ${Array(3000).fill('1').join(' + ')}\n`, message: /more than 1000 operators/ },
  'twenty thousand chained +': { src: `x = ${Array(20_000).fill('"a"').join(' + ')}\n`, message: /more than 1000 operators/ },
  '[0] twenty thousand times': { src: `x = [0]${'[0]'.repeat(20_000)}\n`, message: /more than 1000 operators, calls, indexes/ },
  'attribute chain': { src: `x = json${'.x'.repeat(5000)}\n`, message: /more than 1000/ },
  'call chain': { src: `x = len${'()'.repeat(5000)}\n`, message: /more than 1000/ },
  'unary minus': { src: `x = ${'-'.repeat(20_000)}1\n`, message: /more than 100 levels/ },
  'not not not': { src: `x = ${'not '.repeat(5000)}True\n`, message: /more than 100 levels/ },
  'lambda: lambda:': { src: `x = ${'lambda: '.repeat(2000)}1\n`, message: /more than 100 levels/ },
  'conditional chain': { src: `x = ${'1 if True else '.repeat(5000)}1\n`, message: /more than 100 levels/ },
  'nested comprehensions': { src: `x = ${'[1 for a in '.repeat(1000)}[1]${']'.repeat(1000)}\n`, message: /more than 100 levels/ },
  'nested blocks': {
    src: `def f(x):\n${Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i + 1)}if x:`).join('\n')}\n${' '.repeat(3001)}pass\n`,
    message: /more than 100 levels/,
  },
  'elif chain': { src: `def f(x):\n    if x == 0:\n        pass\n${'    elif x:\n        pass\n'.repeat(3000)}`, message: /more than 1000/ },
};

for (const [name, { src, message }] of Object.entries(beyond)) {
  test(`nesting: ${name} is a located compile diagnostic, fast`, () => {
    const t0 = performance.now();
    const { program, errors } = compileModule(src, 'deep.star');
    const took = performance.now() - t0;
    assert.equal(program, null);
    assert.equal(errors.length, 1);
    const [e] = errors;
    assert.equal(e!.file, 'deep.star');
    assert.match(e!.message, message);
    assert.ok(e!.line >= 1 && e!.col > 1, `located: ${e!.line}:${e!.col}`);
    assert.ok(took < 500, `took ${took.toFixed(0)} ms`);
  });
}

test('nesting: the diagnostic points at the bracket that goes one level too deep', () => {
  const { errors } = compileModule(`x = ${'['.repeat(NESTING + 5)}${']'.repeat(NESTING + 5)}\n`, 'deep.star');
  // `x = ` then the first bracket at column 5: the parser enters one level for the right-hand side
  assert.deepEqual({ line: errors[0]!.line, col: errors[0]!.col }, { line: 1, col: 5 + NESTING });
});

/** Expressions just within the limits, with their value. */
const within: Record<string, { expr: string; want: unknown }> = {
  brackets: { expr: `${'['.repeat(NESTING - 3)}${']'.repeat(NESTING - 3)}`, want: 'list' },
  parens: { expr: `${'('.repeat(NESTING - 3)}7${')'.repeat(NESTING - 3)}`, want: 7 },
  dicts: { expr: `len(${'{1: '.repeat(NESTING - 4)}1${'}'.repeat(NESTING - 4)})`, want: 1 },
  unary: { expr: `${'-'.repeat(NESTING - 4)}1`, want: 1 },
  comprehensions: { expr: `len(${'[1 for a in '.repeat(NESTING - 4)}[1]${']'.repeat(NESTING - 4)})`, want: 1 },
  plus: {
    expr: Array(CHAIN - 10)
      .fill('1')
      .join(' + '),
    want: CHAIN - 10,
  },
  and: {
    expr: Array(CHAIN - 10)
      .fill('True')
      .join(' and '),
    want: true,
  },
  index: { expr: `${'['.repeat(50)}5${']'.repeat(50)}${'[0]'.repeat(50)}`, want: 5 },
};

for (const [name, { expr, want }] of Object.entries(within)) {
  test(`nesting: ${name} within the limits runs, also at the deepest call depth`, () => {
    const src = `def deep(n):\n    if n > 0:\n        return deep(n - 1)\n    return ${expr}\n`;
    const { program, errors } = compileModule(src, 'ok.star');
    assert.deepEqual(errors, []);
    const mod = program!.init();
    for (const depth of [0, 390]) {
      const v = callFunction(mod, 'deep', [depth]);
      if (want === 'list') assert.equal((v as { type: string }).type, 'list');
      else assert.equal(v, want);
    }
  });
}

test('nesting: a runtime stack overflow stays a Starlark error', () => {
  const src = `def deep(n):\n    return deep(n + 1) + ${Array(500).fill('1').join(' + ')}\n`;
  const { program } = compileModule(src, 'ok.star');
  assert.throws(
    () => callFunction(program!.init(), 'deep', [0], { maxDepth: 100_000 }),
    (e: unknown) => e instanceof StarlarkError && e.kind === 'stack',
  );
});
