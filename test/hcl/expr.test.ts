import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseExpression, type Expression } from '../../src/hcl/index.js';
import { at, attr, bin, expr, exprShape, idx, lit, num, str, summaries, v } from './helpers.js';

test('literals: numbers keep their source text, bools and null', () => {
  assert.deepEqual(exprShape('42'), num(42));
  assert.deepEqual(exprShape('3.14159265358979323846264338327950288419716939937510582097494459'), {
    kind: 'Literal',
    value: Math.PI,
    raw: '3.14159265358979323846264338327950288419716939937510582097494459',
  });
  assert.deepEqual(exprShape('1e3'), num(1000, '1e3'));
  assert.deepEqual(exprShape('1.5E-2'), num(0.015, '1.5E-2'));
  assert.deepEqual(exprShape('true'), lit(true));
  assert.deepEqual(exprShape('false'), lit(false));
  assert.deepEqual(exprShape('null'), lit(null));
});

test('tuples and objects: commas or newlines, trailing comma, = or :', () => {
  assert.deepEqual(exprShape('[1, 2,\n 3,\n]'), { kind: 'Tuple', items: [num(1), num(2), num(3)] });
  assert.deepEqual(exprShape('[]'), { kind: 'Tuple', items: [] });
  assert.deepEqual(exprShape('{\n a = 1\n "b": 2,\n (c) = 3, d = 4\n}'), {
    kind: 'ObjectCons',
    items: [
      { key: lit('a'), bareKey: true, value: num(1) },
      { key: str('b'), bareKey: false, value: num(2) },
      { key: { kind: 'Parenthesized', expr: v('c') }, bareKey: false, value: num(3) },
      { key: lit('d'), bareKey: true, value: num(4) },
    ],
  });
  assert.deepEqual(exprShape('{}'), { kind: 'ObjectCons', items: [] });
  // true/false/null written as keys are names, as hclsyntax reads them as traversals
  assert.deepEqual(exprShape('{null = 1}'), { kind: 'ObjectCons', items: [{ key: lit('null'), bareKey: true, value: num(1) }] });
  // a traversal key is an expression
  assert.deepEqual(exprShape('{a.b = 1}'), {
    kind: 'ObjectCons',
    items: [{ key: v('a', attr('b')), bareKey: false, value: num(1) }],
  });
});

test('an object item range spans key to value; the object spans its braces', () => {
  const o = expr('{ a = 1 }');
  assert.equal(o.kind, 'ObjectCons');
  if (o.kind !== 'ObjectCons') return;
  assert.equal(at(o.range), '1:1@0-1:10@9');
  assert.equal(at(o.items[0]!.range), '1:3@2-1:8@7');
  assert.equal(at(o.items[0]!.key.range), '1:3@2-1:4@3');
});

test('traversals: attributes, literal indexes, legacy .0 index, with ranges', () => {
  const e = expr('a.b[0].c["k"].0');
  assert.deepEqual(
    JSON.parse(JSON.stringify(e, (k, val) => (k === 'range' || k === 'rootRange' ? undefined : val))),
    v('a', attr('b'), idx(0), attr('c'), idx('k'), idx(0)),
  );
  if (e.kind !== 'ScopeTraversal') return;
  assert.equal(at(e.range), '1:1@0-1:16@15');
  assert.equal(at(e.rootRange), '1:1@0-1:2@1');
  assert.equal(at(e.steps[0]!.range), '1:2@1-1:4@3');
  assert.equal(at(e.steps[1]!.range), '1:4@3-1:7@6');
  assert.equal(at(e.steps[4]!.range), '1:14@13-1:16@15');
});

test('index with an expression key, and traversal of a non-variable', () => {
  assert.deepEqual(exprShape('a[b]'), { kind: 'Index', collection: v('a'), key: v('b') });
  assert.deepEqual(exprShape('a["${b}"]'), {
    kind: 'Index',
    collection: v('a'),
    key: { kind: 'Template', parts: [{ kind: 'TemplateInterp', expr: v('b') }], heredoc: false },
  });
  assert.deepEqual(exprShape('a[b].c'), {
    kind: 'RelativeTraversal',
    source: { kind: 'Index', collection: v('a'), key: v('b') },
    steps: [attr('c')],
  });
  assert.deepEqual(exprShape('f(x).y[1]'), {
    kind: 'RelativeTraversal',
    source: { kind: 'FunctionCall', name: 'f', args: [v('x')], expandFinal: false },
    steps: [attr('y'), idx(1)],
  });
  assert.deepEqual(exprShape('a[\n  1\n]'), v('a', idx(1)));
});

test('splats: attribute-only .* and full [*], with SplatItem standing for the element', () => {
  const item = { kind: 'SplatItem' };
  assert.deepEqual(exprShape('a.*.b.c'), {
    kind: 'Splat',
    source: v('a'),
    each: { kind: 'RelativeTraversal', source: item, steps: [attr('b'), attr('c')] },
    full: false,
  });
  assert.deepEqual(exprShape('a[*].b[0]'), {
    kind: 'Splat',
    source: v('a'),
    each: { kind: 'RelativeTraversal', source: item, steps: [attr('b'), idx(0)] },
    full: true,
  });
  assert.deepEqual(exprShape('a[*]'), { kind: 'Splat', source: v('a'), each: item, full: true });
  assert.deepEqual(exprShape('a.*'), { kind: 'Splat', source: v('a'), each: item, full: false });
  // the attribute-only splat stops at an index, which applies to the whole result
  assert.deepEqual(exprShape('a.*.b[0]'), {
    kind: 'RelativeTraversal',
    source: { kind: 'Splat', source: v('a'), each: { kind: 'RelativeTraversal', source: item, steps: [attr('b')] }, full: false },
    steps: [idx(0)],
  });
  const s = expr('xs[*].id');
  assert.equal(at(s.range), '1:1@0-1:9@8');
  if (s.kind === 'Splat') assert.equal(at((s.each as { source: Expression }).source.range), '1:3@2-1:6@5');
});

test('operator precedence and left associativity', () => {
  assert.deepEqual(exprShape('1 + 2 * 3'), bin('+', num(1), bin('*', num(2), num(3))));
  assert.deepEqual(exprShape('1 - 2 - 3'), bin('-', bin('-', num(1), num(2)), num(3)));
  assert.deepEqual(exprShape('8 / 4 * 2 % 3'), bin('%', bin('*', bin('/', num(8), num(4)), num(2)), num(3)));
  assert.deepEqual(exprShape('a || b && c'), bin('||', v('a'), bin('&&', v('b'), v('c'))));
  assert.deepEqual(exprShape('a == b && c != d'), bin('&&', bin('==', v('a'), v('b')), bin('!=', v('c'), v('d'))));
  assert.deepEqual(exprShape('a < b == c >= d'), bin('==', bin('<', v('a'), v('b')), bin('>=', v('c'), v('d'))));
  assert.deepEqual(exprShape('1 + 2 > 3 * 4'), bin('>', bin('+', num(1), num(2)), bin('*', num(3), num(4))));
  assert.deepEqual(exprShape('a <= b'), bin('<=', v('a'), v('b')));
  assert.deepEqual(exprShape('a > b'), bin('>', v('a'), v('b')));
});

test('unary operators bind tightest: -46+5 is (-46)+5, !a.b negates the traversal', () => {
  assert.deepEqual(exprShape('-46+5'), bin('+', { kind: 'UnaryOp', op: '-', operand: num(46) }, num(5)));
  assert.deepEqual(exprShape('!a.b && c'), bin('&&', { kind: 'UnaryOp', op: '!', operand: v('a', attr('b')) }, v('c')));
  assert.deepEqual(exprShape('- -1'), { kind: 'UnaryOp', op: '-', operand: { kind: 'UnaryOp', op: '-', operand: num(1) } });
});

test('conditionals are right-nested and bind loosest', () => {
  assert.deepEqual(exprShape('a ? b : c ? d : e'), {
    kind: 'Conditional',
    cond: v('a'),
    then: v('b'),
    else: { kind: 'Conditional', cond: v('c'), then: v('d'), else: v('e') },
  });
  assert.deepEqual(exprShape('x > 1 || y ? 1 + 2 : 3'), {
    kind: 'Conditional',
    cond: bin('||', bin('>', v('x'), num(1)), v('y')),
    then: bin('+', num(1), num(2)),
    else: num(3),
  });
  assert.equal(at(expr('a ? b : c').range), '1:1@0-1:10@9');
});

test('parentheses are kept, and allow newlines', () => {
  assert.deepEqual(exprShape('(1 +\n 2) * 3'), bin('*', { kind: 'Parenthesized', expr: bin('+', num(1), num(2)) }, num(3)));
  assert.equal(at(expr('(a)').range), '1:1@0-1:4@3');
});

test('function calls: arguments, trailing comma, expansion, namespaces, newlines', () => {
  assert.deepEqual(exprShape('f()'), { kind: 'FunctionCall', name: 'f', args: [], expandFinal: false });
  assert.deepEqual(exprShape('f(1,\n  2,\n)'), { kind: 'FunctionCall', name: 'f', args: [num(1), num(2)], expandFinal: false });
  assert.deepEqual(exprShape('f(a, b...)'), { kind: 'FunctionCall', name: 'f', args: [v('a'), v('b')], expandFinal: true });
  assert.deepEqual(exprShape('provider::ns::f(1)'), { kind: 'FunctionCall', name: 'provider::ns::f', args: [num(1)], expandFinal: false });
  const call = expr('ns::fn(x)');
  if (call.kind !== 'FunctionCall') return assert.fail('not a call');
  assert.equal(at(call.nameRange), '1:1@0-1:7@6');
  assert.equal(at(call.range), '1:1@0-1:10@9');
});

test('for expressions: tuple and object forms, key variable, if filter, grouping', () => {
  assert.deepEqual(exprShape('[for v in xs : v]'), {
    kind: 'ForExpr',
    valueVar: 'v',
    collection: v('xs'),
    valueExpr: v('v'),
    group: false,
    isObject: false,
  });
  assert.deepEqual(exprShape('[for i, v in xs : v if i < 2]'), {
    kind: 'ForExpr',
    keyVar: 'i',
    valueVar: 'v',
    collection: v('xs'),
    valueExpr: v('v'),
    cond: bin('<', v('i'), num(2)),
    group: false,
    isObject: false,
  });
  assert.deepEqual(exprShape('{\n  for k, v in m :\n  v => k...\n  if k != ""\n}'), {
    kind: 'ForExpr',
    keyVar: 'k',
    valueVar: 'v',
    collection: v('m'),
    keyExpr: v('v'),
    valueExpr: v('k'),
    cond: bin('!=', v('k'), str('')),
    group: true,
    isObject: true,
  });
  assert.equal(at(expr('[for x in y: x]').range), '1:1@0-1:16@15');
  // `(for)` is a variable
  assert.deepEqual(exprShape('[(for), 1]'), { kind: 'Tuple', items: [{ kind: 'Parenthesized', expr: v('for') }, num(1)] });
});

test('for expression errors', () => {
  const cases: [string, string][] = [
    ['[for, foo]', "For expression requires variable name after 'for'."],
    ['[for x : x]', "For expression requires the 'in' keyword after its name declarations."],
    ['[for x in xs x]', 'For expression requires a colon after the collection expression.'],
    ['[for x in xs : x => x]', 'Key expression is not valid when building a tuple.'],
    ['[for x in xs : x...]', 'Grouping ellipsis (...) cannot be used when building a tuple.'],
    ['{for x in xs : x}', 'Key expression is required when building an object.'],
    ['{for = 1}', "For expression requires variable name after 'for'."],
  ];
  for (const [src, detail] of cases) {
    const r = parseExpression(src, 't.hcl');
    assert.deepEqual(
      r.diagnostics.map((d) => d.detail),
      [detail],
      src,
    );
    assert.equal(r.diagnostics[0]!.summary, "Invalid 'for' expression");
  }
});

test('expression errors carry hclsyntax summaries and precise ranges', () => {
  const cases: [string, string, string][] = [
    ['1 +', 'Missing expression', '1:4@3-1:4@3'],
    ['a ? b', 'Missing false expression in conditional', '1:6@5-1:6@5'],
    ['(a b)', 'Unbalanced parentheses', '1:4@3-1:5@4'],
    ['[1 2]', 'Missing item separator', '1:4@3-1:5@4'],
    ['{a 1}', 'Missing key/value separator', '1:4@3-1:5@4'],
    ['{a b}', 'Missing key/value separator', '1:4@3-1:5@4'],
    ['{a, b = 1}', 'Missing attribute value', '1:3@2-1:4@3'],
    ['{a = 1 b = 2}', 'Missing attribute separator', '1:8@7-1:9@8'],
    ['f(1 2)', 'Missing argument separator', '1:5@4-1:6@5'],
    ['f(a... b)', 'Missing closing parenthesis', '1:4@3-1:7@6'],
    ['a.', 'Invalid attribute name', '1:3@2-1:3@2'],
    ['a.0.1', 'Invalid legacy index syntax', '1:3@2-1:6@5'],
    ['a[*', 'Missing close bracket on splat index', '1:4@3-1:4@3'],
    ['a[1', 'Missing close bracket on index', '1:4@3-1:4@3'],
    ['1 2', 'Extra characters after expression', '1:3@2-1:4@3'],
    ['*', 'Invalid expression', '1:1@0-1:2@1'],
    ['1.2.3', 'Invalid number literal', '1:1@0-1:6@5'],
    ['ns::', 'Missing function name', '1:5@4-1:5@4'],
    ['[1', 'Unterminated tuple constructor expression', '1:1@0-1:2@1'],
    ['{a = 1', 'Unterminated object constructor expression', '1:1@0-1:2@1'],
    ['f(1', 'Unterminated function call', '1:1@0-1:3@2'],
  ];
  for (const [src, summary, range] of cases) {
    const r = parseExpression(src, 't.hcl');
    assert.ok(r.diagnostics.length >= 1, src);
    assert.equal(r.diagnostics[0]!.summary, summary, src);
    assert.equal(at(r.diagnostics[0]!.subject), range, src);
  }
});

test('a missing "=" after a bare name hints at quoting names with periods, as hclsyntax', () => {
  const detail = (src: string) => parseExpression(src, 't.hcl').diagnostics[0]!.detail;
  assert.match(detail('{a b}')!, /containing periods or spaces/);
  assert.doesNotMatch(detail('{a 1}')!, /periods/);
  assert.equal(parseExpression('{a = 1 2}', 't.hcl').diagnostics[0]!.context !== undefined, true);
});

test('a bad expression leaves an invalid Literal placeholder, never a throw', () => {
  const r = parseExpression('[1, *, 3]', 't.hcl');
  assert.deepEqual(summaries(r.diagnostics), ['Invalid expression']);
  assert.equal(r.expr.kind, 'Tuple');
  if (r.expr.kind === 'Tuple') assert.deepEqual(r.expr.items[1], { kind: 'Literal', value: null, invalid: true, range: r.expr.items[1]!.range });
});

test('parseExpression ignores newlines and honours a start position', () => {
  const r = parseExpression('a +\n b', 'm.hcl', { line: 7, column: 9, byte: 120 });
  assert.deepEqual(r.diagnostics, []);
  assert.equal(at(r.expr.range), '7:9@120-8:3@126');
  assert.equal(r.expr.range.filename, 'm.hcl');
});
