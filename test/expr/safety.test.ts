/**
 * Safety of the evaluators against hostile manifests and hostile request data: generated code
 * (codegen.ts) never runs manifest text, no expression reaches inherited JS properties or mutates a
 * prototype, and deeply nested data is handled without a stack overflow.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileExpression } from '../../src/expr/index.js';
import { parseExpression } from '../../src/hcl/index.js';
import { run } from './helpers.js';

const g = globalThis as Record<string, unknown>;

/** An HCL quoted string for `s`: backslash, `"`, newline, `${` and `%{` escaped, everything else raw (lone surrogates too). */
const hclString = (s: string): string => '"' + s.replace(/[\\"\n]|[$%]\{/g, (m) => (m === '\n' ? '\\n' : m.length === 2 ? m[0]! + m : '\\' + m)) + '"';

const HOSTILE = [
  '"]; globalThis.pwned = 1; //',
  "'); globalThis.pwned = 1; ('",
  '\\"]; globalThis.pwned = 1; //',
  'a\u2028globalThis.pwned = 1\u2029b',
  'x\n} ; globalThis.pwned = 1; {',
  '`${globalThis.pwned = 1}`',
  '${globalThis.pwned = 1}',
  '</script><script>globalThis.pwned = 1</script>',
  '*/ globalThis.pwned = 1; /*',
  '\ud800 lone surrogate',
  '__proto__',
  'constructor',
];

test('hostile keys and index strings stay data in generated code', () => {
  delete g.pwned;
  for (const k of HOSTILE) {
    const data = { [k]: { [k]: 42 } };
    // static index steps: a generated traversal
    assert.equal(run(`ctx[${hclString(k)}][${hclString(k)}]`, { ctx: data }), 42, k);
    // static object keys: a generated object literal (or, for __proto__, the keyed path)
    const o = run(`{ ${hclString(k)} = ctx.v, "b" = 1, "c" = 2 }`, { ctx: { v: 7 } }) as Record<string, unknown>;
    assert.deepEqual(Object.keys(o), [k, 'b', 'c'], k);
    assert.equal(Object.getOwnPropertyDescriptor(o, k)?.value, 7, k);
    assert.equal(Object.getPrototypeOf(o), Object.prototype, k);
  }
  assert.equal(g.pwned, undefined);
});

test('inherited JS properties are never visible, on any kind of object', () => {
  const plain = { a: {} };
  const nullProto = Object.assign(Object.create(null) as object, { a: 1 });
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
    assert.equal(run(`ctx.o.${name}`, { ctx: { o: plain } }), null, name);
    assert.equal(run(`ctx.o["${name}"]`, { ctx: { o: plain } }), null, name);
    assert.equal(run(`ctx.o.a.${name}`, { ctx: { o: plain } }), null, name);
    assert.equal(run(`ctx.o.${name}`, { ctx: { o: nullProto } }), null, name);
  }
  assert.equal(run('ctx.o.a', { ctx: { o: nullProto } }), 1);
  // Values that database drivers return: their prototypes' properties are not data either.
  assert.equal(run('ctx.buf.length', { ctx: { buf: Buffer.from('abc') } }), null);
  assert.equal(run('ctx.buf.buffer', { ctx: { buf: Buffer.from('abc') } }), null);
  assert.equal(run('ctx.d.getTime', { ctx: { d: new Date(0) } }), null);
  class Row {
    get secret(): string {
      return 'inherited getter';
    }
  }
  assert.equal(run('ctx.row.secret', { ctx: { row: new Row() } }), null);
  // An own key named like an inherited one is data.
  assert.equal(run('ctx.o.constructor', { ctx: { o: { constructor: 'own' } } }), 'own');
});

test('objects built by expressions never get a prototype from their keys', () => {
  const cases = [
    '{ "__proto__" = { polluted = true } }',
    '{ ("__proto__") = { polluted = true } }',
    'merge({ a = 1 }, { "__proto__" = { polluted = true } })',
    'json_decode("{\\"__proto__\\": {\\"polluted\\": true}}")',
    '{ for k in ["__proto__"] : k => { polluted = true } }',
    '{ for k in ["__proto__", "__proto__"] : k => { polluted = true }... }',
    'merge(ctx.body, {})',
  ];
  const body = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
  for (const src of cases) {
    const o = run(src, { ctx: { body } }) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(o), Object.prototype, src);
    assert.equal(o.polluted, undefined, src);
    assert.ok(Object.hasOwn(o, '__proto__'), src);
  }
  // problem() copies extensions into a fresh object: "__proto__" must stay a key there too.
  const p = run('problem({ status = 404, "__proto__" = { polluted = true } })') as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(p), Object.prototype);
  assert.equal(p.polluted, undefined);
  assert.deepEqual(Object.getOwnPropertyDescriptor(p, '__proto__')?.value, { polluted: true });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('deeply nested data neither overflows the stack at run time nor at boot', () => {
  const nest = (n: number): unknown => {
    const root: unknown[] = [];
    let a = root;
    for (let i = 0; i < n; i++) {
      const b: unknown[] = [];
      a.push(b);
      a = b;
    }
    return root;
  };
  assert.equal(run('ctx.x == ctx.y', { ctx: { x: nest(200000), y: nest(200000) } }), true);
  assert.equal(run('ctx.x != ctx.y', { ctx: { x: nest(200000), y: nest(199999) } }), true);
  // A deep constant is refused at boot (issue 15: serialising it later would overflow the stack),
  // with a diagnostic on the argument; one within the bound is folded and deep-frozen.
  const text = '['.repeat(200000) + ']'.repeat(200000);
  const { expr } = parseExpression(`json_decode("${text}")`, 't.hcl');
  const { diagnostics } = compileExpression(expr);
  assert.deepEqual(
    diagnostics.map((d) => [d.summary, d.subject?.start.column, d.detail]),
    [['Invalid function argument', 13, 'Invalid value for "text" parameter: the JSON text nests objects and arrays more than 64 levels deep.']],
  );
  const ok = compileExpression(parseExpression(`json_decode("${'['.repeat(64) + ']'.repeat(64)}")`, 't.hcl').expr);
  assert.deepEqual(ok.diagnostics, []);
  assert.equal(ok.compiled.constant, true);
  assert.ok(Object.isFrozen(ok.compiled.value));
});
