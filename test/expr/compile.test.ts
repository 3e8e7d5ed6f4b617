import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseExpression } from '../../src/hcl/index.js';
import { compileExpression, ExprEvalError, staticReferences } from '../../src/expr/index.js';
import { compiled, diags, run, runError, slice } from './helpers.js';

const ctx = {
  request: {
    method: 'GET',
    path: '/users/7',
    query: { limit: 10, q: 'ab', tags: ['a', 'b'] },
    headers: { 'x-api-key': 'secret', 'content-type': 'application/json' },
    body: {
      name: 'Ann',
      address: null,
      items: [
        { id: 1, n: 2 },
        { id: 2, n: 3 },
      ],
      nested: { a: { b: 'deep' } },
    },
  },
  timestamp_epoch: 1700000000,
};
const steps = { find: { row: { id: 7, name: 'x' }, rows: [{ id: 7 }, { id: 8 }], rows_affected: 2 }, empty: { rows: [] } };
const vars = { ctx, steps };

describe('literals and collections', () => {
  it('evaluates primitive literals', () => {
    assert.equal(run('5'), 5);
    assert.equal(run('3.25'), 3.25);
    assert.equal(run('1e3'), 1000);
    assert.equal(run('true'), true);
    assert.equal(run('null'), null);
    assert.equal(run('"hi"'), 'hi');
  });
  it('builds tuples and objects', () => {
    assert.deepEqual(run('[1, "a", [true], {}]'), [1, 'a', [true], {}]);
    assert.deepEqual(run('{a = 1, "b c" = 2, (ctx.request.method) = 3}', vars), { a: 1, 'b c': 2, GET: 3 });
    assert.deepEqual(run('{a: 1, b: ctx.request.query.limit}', vars), { a: 1, b: 10 });
    assert.deepEqual(run('{"${ctx.request.method}x" = 1, (steps.find.row.id) = 2}', vars), { GETx: 1, '7': 2 });
  });
  it('refuses a naked traversal as a key, as HCL', () => {
    assert.equal(diags('{ctx.a = 1}')[0]!.summary, 'Ambiguous attribute key');
    assert.deepEqual(run('{(ctx.a) = 1, "ctx.a" = 2}', { ctx: { a: 'k' } }), { k: 1, 'ctx.a': 2 });
  });
  it('refuses null and structured object keys', () => {
    const e = runError('{(ctx.missing) = 1}', vars);
    assert.equal(e.summary, 'Invalid object key');
    assert.equal(diags('{(null) = 1}')[0]!.summary, 'Invalid object key');
  });
  it('keeps "__proto__" as a plain key', () => {
    const o = run('{"__proto__" = 1, (ctx.request.method) = 2}', vars) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(o), Object.prototype);
    assert.deepEqual(Object.keys(o), ['__proto__', 'GET']);
  });
});

describe('traversal and index', () => {
  it('reads nested attributes, header names with dashes, indexes', () => {
    assert.equal(run('ctx.request.query.limit', vars), 10);
    assert.equal(run('ctx.request.headers.x-api-key', vars), 'secret');
    assert.equal(run('ctx.request.body.items[1].id', vars), 2);
    assert.equal(run('ctx.request.body.items.0.id', vars), 1);
    assert.equal(run('ctx.request.headers["content-type"]', vars), 'application/json');
    assert.equal(run('steps.find.rows[ctx.request.query.limit - 9].id', vars), 8);
    assert.equal(run('ctx.request.body["nested"].a["b"]', vars), 'deep');
    assert.equal(run('[10, 20, 30]["1"]'), 20);
    assert.equal(run('{a = 1}["a"]'), 1);
    assert.equal(run('{"1" = "one"}[1]'), 'one');
  });
  it('is null-safe on missing keys and null values (DECISIONS §2)', () => {
    assert.equal(run('ctx.request.body.missing', vars), null);
    assert.equal(run('ctx.request.body.address.city', vars), null);
    assert.equal(run('ctx.request.body.missing.a.b.c', vars), null);
    assert.equal(run('ctx.request.body["missing"]', vars), null);
    assert.equal(run('ctx.nothing', vars), null);
    assert.equal(run('ctx.request', {}), null);
  });
  it('gives null for a list index out of range (documented choice)', () => {
    assert.equal(run('steps.empty.rows[0].id', vars), null);
    assert.equal(run('steps.find.rows[5]', vars), null);
    assert.equal(run('[1, 2][-1]'), null);
  });
  it('does not expose prototype properties', () => {
    assert.equal(run('ctx.request.body.constructor', vars), null);
    assert.equal(run('ctx.request.body.toString', vars), null);
    assert.equal(run('ctx.request.body["__proto__"]', vars), null);
    assert.equal(run('ctx.request.body.hasOwnProperty', vars), null);
  });
  it('reports attribute access on primitives and lists', () => {
    const src = 'ctx.request.method.length';
    const e = runError(src, vars);
    assert.equal(e.summary, 'Unsupported attribute');
    assert.equal(slice(src, e.range), '.length');
    assert.equal(runError('ctx.request.body.items.id', vars).summary, 'Unsupported attribute');
  });
  it('reports bad indexes', () => {
    assert.equal(runError('ctx.request.method[0]', vars).summary, 'Invalid index');
    assert.equal(runError('steps.find.rows[ctx.request.method]', vars).summary, 'Invalid index');
    assert.equal(runError('steps.find.rows[1.5]', vars).summary, 'Invalid index');
    const src = 'steps.find.rows[ctx.none]';
    const e = runError(src, vars);
    assert.equal(e.detail, "Can't use a null value as an indexing key.");
    assert.equal(slice(src, e.range), 'ctx.none');
  });
  it('traverses results of calls and parenthesized expressions', () => {
    assert.equal(run('merge({a = {b = 1}}, {}).a.b'), 1);
    assert.equal(run('(ctx.request).body.name', vars), 'Ann');
    assert.equal(run('[[1, 2], [3]][0][1]'), 2);
  });
});

describe('splat', () => {
  it('maps attribute and full splats', () => {
    assert.deepEqual(run('ctx.request.body.items[*].id', vars), [1, 2]);
    assert.deepEqual(run('ctx.request.body.items.*.id', vars), [1, 2]);
    assert.deepEqual(run('[[1, 2], [3, 4]][*][0]'), [1, 3]);
    assert.deepEqual(run('[{a = [1, 2]}, {a = [3, 4]}][*].a[1]'), [2, 4]);
  });
  it('indexes after an attribute-only splat apply to the result, as HCL', () => {
    assert.equal(run('[{a = 1}, {a = 2}].*.a[1]'), 2);
  });
  it('turns null into an empty tuple and wraps a non-list', () => {
    assert.deepEqual(run('ctx.request.body.missing[*].id', vars), []);
    assert.deepEqual(run('steps.find.row[*].id', vars), [7]);
    assert.deepEqual(run('"x"[*]'), ['x']);
    assert.deepEqual(run('null[*]'), []);
  });
  it('nests', () => {
    assert.deepEqual(run('[[{a = 1}], [{a = 2}, {a = 3}]][*][*].a'), [[1], [2, 3]]);
  });
});

describe('templates', () => {
  it('interpolates with HCL string conversion', () => {
    assert.equal(run('"n=${1.5} b=${true} s=${"x"} big=${1e21} small=${0.0000001}"'), 'n=1.5 b=true s=x big=1000000000000000000000 small=0.0000001');
    assert.equal(run('"Hello, ${ctx.request.body.name}!"', vars), 'Hello, Ann!');
    assert.equal(run('"${ctx.request.query.limit}"', vars), 10, 'a lone interpolation is not converted');
    assert.equal(run('"${true}"'), true);
    assert.equal(run('"${""}${true}"'), 'true');
    assert.equal(run('"$${x} %%{y}"'), '${x} %{y}');
  });
  it('refuses null and structured interpolations', () => {
    const src = '"a ${ctx.request.body.address} b"';
    const e = runError(src, vars);
    assert.equal(e.summary, 'Invalid template interpolation value');
    assert.equal(slice(src, e.range), 'ctx.request.body.address');
    assert.equal(runError('"a ${ctx.request.body.items}"', vars).summary, 'Invalid template interpolation value');
    assert.equal(diags('"a ${[1]}"')[0]!.summary, 'Invalid template interpolation value');
  });
  it('runs if and for directives', () => {
    assert.equal(run('"%{ if ctx.request.query.limit > 5 }big%{ else }small%{ endif }"', vars), 'big');
    assert.equal(run('"%{ if false }x%{ endif }"'), '');
    assert.equal(run('"%{ for i, t in ctx.request.query.tags }${i}:${t};%{ endfor }"', vars), '0:a;1:b;');
    assert.equal(run('"%{ for k, v in {b = 2, a = 1} }${k}=${v} %{ endfor }"'), 'a=1 b=2 ');
    assert.equal(run('"%{ for v in [true] }${v}%{ endfor }"'), 'true');
    assert.equal(run('"%{~ for v in [1, 2] ~} ${v} %{~ endfor ~}"'), '12');
  });
  it('reports a non-bool if condition', () => {
    assert.equal(runError('"%{ if ctx.request.body.name }x%{ endif }"', vars).summary, 'Invalid template if condition');
  });
  it('handles heredocs', () => {
    assert.equal(run('<<EOT\nHello ${ctx.request.body.name}\n  indented\nEOT\n', vars), 'Hello Ann\n  indented\n');
    assert.equal(run('<<-EOT\n    a\n      b\n    EOT\n'), 'a\n  b\n');
  });
});

describe('operators', () => {
  it('does arithmetic with HCL conversions', () => {
    assert.equal(run('1 + 2 * 3 - 4 / 2'), 5);
    assert.equal(run('-ctx.request.query.limit', vars), -10);
    assert.equal(run('11 % 5'), 1);
    assert.equal(run('-7 % 3'), -1, 'truncated modulo as HCL');
    assert.equal(run('"2" * 3'), 6);
    assert.equal(run('ctx.request.query.limit + "5"', vars), 15);
  });
  it('reports bad operands at run time with the operand range', () => {
    const src = 'ctx.request.query.limit + ctx.request.method';
    const e = runError(src, vars);
    assert.equal(e.summary, 'Invalid operand');
    assert.equal(slice(src, e.range), 'ctx.request.method');
    assert.match(runError('ctx.request.body.missing * 2', vars).detail, /null/);
    assert.equal(runError('ctx.request.query.limit / 0', vars).summary, 'Operation failed');
  });
  it('reports obviously wrong constant operands at compile time', () => {
    const d = diags('ctx.request.query.limit + "abc"');
    assert.equal(d.length, 1);
    assert.equal(d[0]!.summary, 'Invalid operand');
    assert.equal(diags('1 + true').length, 1);
    assert.equal(diags('!5').length, 1);
    assert.equal(diags('"a" && ctx.x').length, 1);
    assert.equal(diags('1 / 0')[0]!.summary, 'Operation failed');
  });
  it('compares with deep equality across types', () => {
    assert.equal(run('"1" == 1'), false);
    assert.equal(run('"true" != true'), true);
    assert.equal(run('[1, {a = "x"}] == [1, {a = "x"}]'), true);
    assert.equal(run('{a = 1} == {a = 1, b = 2}'), false);
    assert.equal(run('null == ctx.request.body.address', vars), true);
    assert.equal(run('ctx.request.body.missing == null', vars), true);
    assert.equal(run('1 == 1.0'), true);
  });
  it('orders numbers', () => {
    assert.equal(run('1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 4 == false'), true);
    assert.equal(run('"10" > 9'), true);
    assert.equal(runError('ctx.request.method < 1', vars).summary, 'Invalid operand');
  });
  it('does logic on bools, short-circuiting', () => {
    assert.equal(run('true && !false || false'), true);
    assert.equal(run('false && ctx.request.method', vars), false);
    assert.equal(run('true || ctx.request.method', vars), true);
    assert.equal(runError('ctx.request.method && true', vars).summary, 'Invalid operand');
    assert.equal(run('"true" && true'), true);
  });
  it('respects precedence and associativity', () => {
    assert.equal(run('8 / 4 * 2'), 4);
    assert.equal(run('1 + 2 == 3 && 2 * 2 == 4'), true);
    assert.equal(run('!true == false'), true);
  });
});

describe('conditional', () => {
  it('picks a branch', () => {
    assert.equal(run('ctx.request.query.limit > 5 ? "big" : "small"', vars), 'big');
    assert.deepEqual(run('steps.empty.rows[0] != null ? steps.empty.rows[0] : {}', vars), {});
  });
  it('evaluates only the selected branch', () => {
    assert.equal(run('true ? 1 : ctx.request.method + 1', vars), 1);
  });
  it('needs a bool condition', () => {
    const e = runError('ctx.request.body.address ? 1 : 2', vars);
    assert.equal(e.summary, 'Invalid conditional');
    assert.equal(diags('"yes" ? 1 : 2')[0]!.summary, 'Invalid conditional');
  });
});

describe('for expressions', () => {
  it('builds tuples and objects', () => {
    assert.deepEqual(run('[for v in ["a", "b"]: v]'), ['a', 'b']);
    assert.deepEqual(run('[for i, v in ["a", "b"]: i]'), [0, 1]);
    assert.deepEqual(run('{for i, v in ["a", "b"]: v => i}'), { a: 0, b: 1 });
    assert.deepEqual(run('{for i, v in ["a", "a", "b"]: v => i...}'), { a: [0, 1], b: [2] });
    assert.deepEqual(run('[for i, v in ["a", "b", "c"]: v if i < 2]'), ['a', 'b']);
    assert.deepEqual(run('[for it in ctx.request.body.items: it.id * it.n]', vars), [2, 6]);
  });
  it('iterates objects in key order', () => {
    assert.deepEqual(run('[for k, v in {b = 1, a = 2, c = 3}: "${k}${v}"]'), ['a2', 'b1', 'c3']);
    assert.deepEqual(run('{for k, v in ctx.request.headers: upper(k) => v}', vars), { 'CONTENT-TYPE': 'application/json', 'X-API-KEY': 'secret' });
  });
  it('treats a null collection as empty (documented choice)', () => {
    assert.deepEqual(run('[for x in ctx.request.body.missing: x]', vars), []);
    assert.deepEqual(run('{for x in ctx.request.body.missing: x => x}', vars), {});
  });
  it('reports duplicate keys, bad collections and conditions', () => {
    const e = runError('{for i, v in ctx.request.query.tags: "k" => v}', vars);
    assert.equal(e.summary, 'Duplicate object key');
    assert.equal(diags('{for i, v in ["a", "a"]: v => i}')[0]!.summary, 'Duplicate object key');
    assert.equal(runError('[for c in ctx.request.method: c]', vars).summary, 'Iteration over non-iterable value');
    assert.equal(runError('[for v in ctx.request.query.tags: v if v]', vars).summary, "Invalid 'for' condition");
    assert.equal(runError('{for v in ctx.request.query.tags: ctx.none => v}', vars).summary, 'Invalid object key');
  });
  it('nests and shadows', () => {
    assert.deepEqual(run('[for x in [1, 2]: [for y in [10, 20]: x * y]]'), [
      [10, 20],
      [20, 40],
    ]);
    assert.deepEqual(run('[for x in [1, 2]: [for x in [x, x]: x + 1]]'), [
      [2, 2],
      [3, 3],
    ]);
    assert.deepEqual(run('[for r in steps.find.rows: [for t in ctx.request.query.tags: "${r.id}${t}"]]', vars), [
      ['7a', '7b'],
      ['8a', '8b'],
    ]);
  });
  it('keeps locals separate from roots and across evaluations', () => {
    const c = compiled('[for ctx in [1, 2]: ctx]');
    assert.deepEqual(c.evaluate({}), [1, 2]);
    const d = compiled('[for t in ctx.request.query.tags: t]');
    assert.deepEqual(d.evaluate(vars), ['a', 'b']);
    assert.deepEqual(d.evaluate({ ctx: { request: { query: { tags: ['z'] } } } }), ['z']);
  });
});

describe('function calls', () => {
  it('calls, with ... expansion', () => {
    assert.equal(run('upper(ctx.request.body.name)', vars), 'ANN');
    assert.equal(run('max(ctx.request.body.items[*].n...)', vars), 3);
    assert.equal(run('format("%s-%s", ctx.request.query.tags...)', vars), 'a-b');
    assert.equal(run('min(5, [3, 9]...)'), 3);
  });
  it('reports unknown functions and wrong argument counts at compile time', () => {
    const d = diags('uper(ctx.request.method)');
    assert.equal(d[0]!.summary, 'Call to unknown function');
    assert.equal(d[0]!.suggestion, 'upper');
    assert.equal(diags('upper()')[0]!.summary, 'Not enough function arguments');
    assert.match(diags('upper()')[0]!.detail!, /Missing value for "str"/);
    const src = 'upper(ctx.x, ctx.y)';
    const too = diags(src)[0]!;
    assert.equal(too.summary, 'Too many function arguments');
    assert.equal(slice(src, too.subject!), 'ctx.y');
    assert.equal(diags('lookup({})').length, 1);
    assert.equal(diags('lookup({}, "a", "b", "c")').length, 1);
    assert.equal(diags('coalesce()').length, 0);
  });
  it('checks argument counts after expansion at run time', () => {
    assert.equal(runError('upper(ctx.request.query.tags...)', vars).summary, 'Too many function arguments');
    assert.equal(runError('min(steps.empty.rows...)', vars).summary, 'Error in function call');
    assert.equal(runError('upper(ctx.request.method...)', vars).summary, 'Invalid expanding argument value');
  });
  it('reports bad argument values on the argument', () => {
    const src = 'upper(ctx.request.body.items)';
    const e = runError(src, vars);
    assert.equal(e.summary, 'Invalid function argument');
    assert.equal(e.detail, 'Invalid value for "str" parameter: string required, not tuple.');
    assert.equal(slice(src, e.range), 'ctx.request.body.items');
  });
  it('accepts a custom function table', () => {
    const functions = new Map([
      ['twice', { name: 'twice', params: ['x'], minArgs: 1, maxArgs: 1, pure: true, impl: (a: readonly unknown[]) => (a[0] as number) * 2 }],
    ]);
    assert.equal(run('twice(21)', {}, { functions }), 42);
    assert.equal(diags('upper("x")', { functions })[0]!.summary, 'Call to unknown function');
  });
});

describe('scope and diagnostics', () => {
  it('reports unknown roots with a suggestion and its range', () => {
    const src = 'cxt.request.body';
    const d = diags(src);
    assert.equal(d.length, 1);
    assert.equal(d[0]!.summary, 'Unknown variable');
    assert.equal(d[0]!.suggestion, 'ctx');
    assert.equal(slice(src, d[0]!.subject!), 'cxt');
  });
  it('suggests ctx. for a ctx name written as a root', () => {
    assert.equal(diags('request.body.name')[0]!.suggestion, 'ctx.request');
    assert.equal(diags('stepz.a')[0]!.suggestion, 'steps');
  });
  it('accepts the roots it is given', () => {
    assert.equal(run('var.a', { var: { a: 1 } }, { roots: new Set(['var']) }), 1);
    assert.equal(diags('ctx.a', { roots: new Set(['var']) })[0]!.summary, 'Unknown variable');
  });
  it('reports every problem at once', () => {
    assert.equal(diags('[foo.a, bar(1), upper(), 1 + "x"]').length, 4);
  });
});

describe('references', () => {
  const refs = (src: string) => {
    const { expr } = parseExpression(src, 'r.hcl');
    return staticReferences(expr).map((r) => [r.root, r.path]);
  };
  it('lists static paths with null for dynamic steps', () => {
    assert.deepEqual(refs('steps.find.rows[0].id'), [['steps', ['find', 'rows', 0, 'id']]]);
    assert.deepEqual(refs('steps.a[ctx.request.query.i].b'), [
      ['steps', ['a', null, 'b']],
      ['ctx', ['request', 'query', 'i']],
    ]);
    assert.deepEqual(refs('steps.a["k"]'), [['steps', ['a', 'k']]]);
    assert.deepEqual(refs('steps.list[*].name'), [['steps', ['list', null, 'name']]]);
    assert.deepEqual(refs('ctx.request.headers.x-api-key'), [['ctx', ['request', 'headers', 'x-api-key']]]);
  });
  it('excludes locals, includes everything else', () => {
    assert.deepEqual(refs('[for r in steps.q.rows: r.id if r.id > ctx.min]'), [
      ['steps', ['q', 'rows']],
      ['ctx', ['min']],
    ]);
    assert.deepEqual(refs('"%{ for x in steps.a.v }${x}${steps.b.w}%{ endfor }"'), [
      ['steps', ['a', 'v']],
      ['steps', ['b', 'w']],
    ]);
    assert.deepEqual(refs('{(ctx.k) = upper(steps.s.v), a = 1}'), [
      ['ctx', ['k']],
      ['steps', ['s', 'v']],
    ]);
    assert.deepEqual(refs('1 + 2'), []);
  });
  it('gives each reference its range', () => {
    const src = 'upper(steps.a.b)';
    const { compiled: c } = compileExpression(parseExpression(src, 'r.hcl').expr);
    assert.equal(slice(src, c.references[0]!.range), 'steps.a.b');
  });
});

describe('constant folding', () => {
  it('folds constant expressions and marks them', () => {
    const c = compiled('{a = [for i in [1, 2, 3]: i * 2], b = upper("x"), c = length("héllo")}');
    assert.equal(c.constant, true);
    assert.deepEqual(c.value, { a: [2, 4, 6], b: 'X', c: 5 });
    assert.ok(Object.isFrozen(c.evaluate({})), 'folded values are frozen: they are shared by every request');
    assert.ok(Object.isFrozen((c.evaluate({}) as { a: unknown }).a));
  });
  it('does not fold impure functions or references', () => {
    assert.equal(compiled('uuid()').constant, false);
    assert.equal(compiled('problem(404, "x")').constant, false);
    assert.equal(compiled('ctx.a').constant, false);
    assert.equal(compiled('[1, ctx.a]').constant, false);
    const u = compiled('uuid()');
    assert.notEqual(u.evaluate({}), u.evaluate({}));
  });
  it('folds constant parts inside dynamic expressions', () => {
    assert.equal(run('ctx.request.query.limit * (2 + 3)', vars), 50);
  });
  it('is constant for an env() with constant arguments (read at boot)', () => {
    process.env.SVC_EXPR_TEST = 'v1';
    const c = compiled('env("SVC_EXPR_TEST")');
    assert.equal(c.constant, true);
    process.env.SVC_EXPR_TEST = 'v2';
    assert.equal(c.evaluate({}), 'v1');
    delete process.env.SVC_EXPR_TEST;
  });
});

describe('ExprEvalError', () => {
  it('is an Error with summary, detail, range', () => {
    const e = runError('ctx.request.method * 2', vars);
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'ExprEvalError');
    assert.equal(e.range.filename, 'test.hcl');
    assert.equal(e.message, `${e.summary}: ${e.detail}`);
    const d = e.toDiagnostic();
    assert.equal(d.severity, 'error');
    assert.equal(d.subject, e.range);
  });
  it('does not leak across evaluations', () => {
    const c = compiled('ctx.a + 1');
    assert.throws(() => c.evaluate({ ctx: { a: 'x' } }), ExprEvalError);
    assert.equal(c.evaluate({ ctx: { a: 1 } }), 2);
  });
});

describe('constant conditions', () => {
  it('select their branch at boot', () => {
    process.env.SVC_EXPR_COND = '1';
    const c = compiled('env("SVC_EXPR_COND") == "1" ? ctx.a : ctx.b');
    delete process.env.SVC_EXPR_COND;
    assert.equal(c.evaluate({ ctx: { a: 'A', b: 'B' } }), 'A');
    assert.deepEqual(
      c.references.map((r) => r.path),
      [['a'], ['b']],
      'references still list both branches',
    );
  });
});

describe('Unicode strings', () => {
  it('normalizes literal text to NFC and compares strings by their NFC form, as HCL', () => {
    assert.equal(run('"an\u0303o"'), 'año');
    assert.equal(run('"x${ctx.s}"', { ctx: { s: 1 } }), 'x1');
    assert.equal(run('ctx.a == "año"', { ctx: { a: 'an\u0303o' } }), true);
    assert.equal(run('contains(ctx.l, "año")', { ctx: { l: ['an\u0303o'] } }), true);
    assert.equal(run('ctx.a == "ano"', { ctx: { a: 'año' } }), false);
    // A bare key is normalized as a quoted one is: both spellings make the same single key.
    assert.deepEqual(Object.keys(run('{ an\u0303o = 1 }') as object), ['a\u00f1o']);
    assert.deepEqual(run('{ an\u0303o = 1, "a\u00f1o" = 2 }'), { 'a\u00f1o': 2 });
  });
});

describe('generated evaluators', () => {
  it('embed any property name safely', () => {
    const weird = { 'a"b': 1, "c'}d": 2, 'e\u2028f': 3, '${x}': 4, '\\': 5 };
    assert.equal(run('ctx.w["a\\"b"]', { ctx: { w: weird } }), 1);
    assert.equal(run(`ctx.w["c'}d"]`, { ctx: { w: weird } }), 2);
    assert.equal(run('ctx.w["e\u2028f"]', { ctx: { w: weird } }), 3);
    assert.equal(run('ctx.w["$${x}"]', { ctx: { w: weird } }), 4);
    assert.equal(run('ctx.w["\\\\"]', { ctx: { w: weird } }), 5);
    assert.deepEqual(run('{"a\\"b" = 1, "}); throw 1; ({" = 2}'), { 'a"b': 1, '}); throw 1; ({': 2 });
  });
  it('read own properties only for inherited names', () => {
    const o = JSON.parse('{"__proto__": {"x": 1}, "constructor": "c"}') as unknown;
    assert.deepEqual(run('ctx.o["__proto__"].x', { ctx: { o } }), 1);
    assert.equal(run('ctx.o.constructor', { ctx: { o } }), 'c');
    assert.equal(run('ctx.p.constructor', { ctx: { p: {} } }), null);
  });
  it('handle literal index steps on lists and objects', () => {
    assert.equal(run('ctx.l[1]', { ctx: { l: ['a', 'b'] } }), 'b');
    assert.equal(run('ctx.l[5]', { ctx: { l: ['a', 'b'] } }), null);
    assert.equal(run('ctx.m[1]', { ctx: { m: { '1': 'one' } } }), 'one');
    assert.equal(runError('ctx.s[0]', { ctx: { s: 'str' } }).summary, 'Invalid index');
  });
});

describe('cases from hclsyntax expression tests', () => {
  const cases: [string, unknown][] = [
    ['{true: "yes", null: "n", 15: "f"}', { true: 'yes', null: 'n', 15: 'f' }],
    ['"hello $$nonescape"', 'hello $$nonescape'],
    ['"silly ${"${true}"}"', 'silly true'],
    ['upper("foo", []...)', 'FOO'],
    ['{for k, v in ["world"]: k => v if k == 0}', { 0: 'world' }],
    ['{for k, v in {hello: "world"}: 5 => v}', { 5: 'world' }],
    ['{for i, v in ["a", "b", "c", "b", "d"]: v => i... if i <= 2}', { a: [0], b: [1], c: [2] }],
    ['["hello", "goodbye"].*', ['hello', 'goodbye']],
    ['"hello".*', ['hello']],
    ['[["hello"], ["world", "unused"]].*.0', ['hello', 'world']],
    ['[[{name:"foo"}], [{name:"bar"}, {name:"baz"}]].*.0.name', ['foo', 'bar']],
    ['[{names: ["Steve"]}, {names: ["Ermintrude"]}][*].names[0]', ['Steve', 'Ermintrude']],
    ['[[{name: "Steve"}], [{name: "Ermintrude"}]][*][0].name', ['Steve', 'Ermintrude']],
    ['[{greeting = "hello"}].0.greeting', 'hello'],
    ['{"true" = 1}[true]', 1],
    ['"" == null', false],
    ['false ? null : null', null],
  ];
  for (const [src, want] of cases) it(src, () => assert.deepEqual(run(src), want));
  it('errors where hclsyntax errors', () => {
    assert.equal(diags('upper(["foo", "bar"]...)')[0]!.summary, 'Too many function arguments');
    assert.equal(diags('{for k, v in {hello: "world"}: [] => v}')[0]!.summary, 'Invalid object key');
    assert.equal(diags('[for i, v in ["a", "b"]: v if i + i]')[0]!.summary, "Invalid 'for' condition");
    assert.equal(diags('[for v in "hello": v]')[0]!.summary, 'Iteration over non-iterable value');
    assert.equal(diags('["boop"].foo')[0]!.summary, 'Unsupported attribute');
    assert.equal(diags('(2+true)').length, 1);
  });
});
