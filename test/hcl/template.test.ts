import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isWrap, parseExpression, parseFile, parseTemplate, type Template, type TemplatePart } from '../../src/hcl/index.js';
import { at, expr, exprShape, lit, num, shape, summaries, v } from './helpers.js';

const L = (value: string) => ({ kind: 'TemplateLiteral', value });
const I = (e: unknown) => ({ kind: 'TemplateInterp', expr: e });
const tmpl = (...parts: unknown[]) => ({ kind: 'Template', parts, heredoc: false });

/** Renders literal parts and `<name>` for simple interpolations: enough to check text results. */
function text(parts: readonly TemplatePart[]): string {
  return parts
    .map((p) => {
      if (p.kind === 'TemplateLiteral') return p.value;
      if (p.kind === 'TemplateInterp') return p.expr.kind === 'ScopeTraversal' ? `<${p.expr.root}>` : '<expr>';
      return '<directive>';
    })
    .join('');
}

function heredoc(src: string): Template {
  const f = parseFile(`x = ${src}\n`, 't.hcl');
  assert.deepEqual(summaries(f.diagnostics), [], src);
  const a = f.file.body.items[0]!;
  if (a.kind !== 'Attribute' || a.expr.kind !== 'Template') throw new Error('not a template');
  assert.equal(a.expr.heredoc, true);
  return a.expr;
}

test('quoted strings: literal, empty, interpolation, wrap detection', () => {
  assert.deepEqual(exprShape('"hello"'), tmpl(L('hello')));
  assert.deepEqual(exprShape('""'), tmpl(L('')));
  assert.deepEqual(exprShape('"a${b}c"'), tmpl(L('a'), I(v('b')), L('c')));
  const wrap = expr('"${x}"') as Template;
  assert.equal(isWrap(wrap), true);
  assert.equal(isWrap(expr('"${x}${y}"') as Template), false);
  assert.equal(isWrap(expr('"a${x}"') as Template), false);
  assert.deepEqual(exprShape('"${"${true}"}"'), tmpl(I(tmpl(I(lit(true))))));
  // Nested braces inside an interpolation
  assert.deepEqual(
    exprShape('"${ {a = 1}.a }"'),
    tmpl(
      I({
        kind: 'RelativeTraversal',
        source: { kind: 'ObjectCons', items: [{ key: lit('a'), bareKey: true, value: num(1) }] },
        steps: [{ kind: 'Attr', name: 'a' }],
      }),
    ),
  );
});

test('template ranges: the whole string, literals and interpolations', () => {
  const t = expr('"ab${x}c"') as Template;
  assert.equal(at(t.range), '1:1@0-1:10@9');
  assert.equal(at(t.parts[0]!.range), '1:2@1-1:4@3');
  assert.equal(at(t.parts[1]!.range), '1:4@3-1:8@7');
  assert.equal(at(t.parts[2]!.range), '1:8@7-1:9@8');
  const empty = expr('""') as Template;
  assert.equal(at(empty.parts[0]!.range), '1:2@1-1:2@1');
});

test('escapes', () => {
  assert.deepEqual(exprShape('"a\\nb\\rc\\td\\"e\\\\f"'), tmpl(L('a\nb\rc\td"e\\f')));
  assert.deepEqual(exprShape('"\\u00e9\\U0001F600"'), tmpl(L('é😀')));
  assert.deepEqual(exprShape('"$${x} %%{y} $x %z $$"'), tmpl(L('${x} %{y} $x %z $$')));
  assert.deepEqual(exprShape('"$$${x}"'), tmpl(L('$${x}')));
  assert.deepEqual(exprShape('"100%"'), tmpl(L('100%')));
});

test('invalid escapes are reported on exactly the sequence', () => {
  const cases: [string, string, string][] = [
    ['"a\\qb"', 'The symbol "q" is not a valid escape sequence selector.', '1:3@2-1:5@4'],
    ['"\\u12"', 'The \\u escape sequence must be followed by four hexadecimal digits.', '1:2@1-1:6@5'],
    ['"\\U1234"', 'The \\U escape sequence must be followed by eight hexadecimal digits.', '1:2@1-1:8@7'],
    ['"\\uD800"', 'Cannot encode character U+d800 in UTF-8.', '1:2@1-1:8@7'],
    ['"é\\x"', 'The symbol "x" is not a valid escape sequence selector.', '1:3@3-1:5@5'],
    // a surrogate pair is one column and four bytes; a lone surrogate one column and three bytes
    ['"👩€\\x"', 'The symbol "x" is not a valid escape sequence selector.', '1:4@8-1:6@10'],
    ['"\ud800\\x"', 'The symbol "x" is not a valid escape sequence selector.', '1:3@4-1:5@6'],
    ['"\\👩"', 'The symbol "👩" is not a valid escape sequence selector.', '1:2@1-1:4@6'],
  ];
  for (const [src, detail, range] of cases) {
    const r = parseExpression(src, 't.hcl');
    assert.deepEqual(summaries(r.diagnostics), ['Invalid escape sequence'], src);
    assert.equal(r.diagnostics[0]!.detail, detail, src);
    assert.equal(at(r.diagnostics[0]!.subject), range, src);
  }
});

test('strip markers remove adjacent whitespace in literals only', () => {
  assert.deepEqual(exprShape('"hello ${~ "world" }"'), tmpl(L('hello'), I(tmpl(L('world')))));
  assert.deepEqual(exprShape('"a  ${x ~}  b"'), tmpl(L('a  '), I(v('x')), L('b')));
  assert.deepEqual(exprShape('"${"hello" ~}${" world"}"'), tmpl(I(tmpl(L('hello'))), I(tmpl(L(' world')))));
  const t = expr('"%{ if true ~} hello %{~ endif }"') as Template;
  assert.deepEqual(shape(t.parts), [{ kind: 'TemplateIf', cond: lit(true), then: [L('hello')], else: [] }]);
  // In a heredoc, newlines are whitespace too: directives at the start of lines strip their lines away.
  const h = heredoc('<<EOT\na\n%{~ if x ~}\nb\n%{~ endif ~}\nc\nEOT');
  assert.deepEqual(shape(h.parts), [L('a'), { kind: 'TemplateIf', cond: v('x'), then: [L('b')], else: [] }, L('c\n')]);
  // As in hclsyntax, a marker only strips the literal piece right next to it: the indentation
  // before an indented directive is a piece of its own, so the previous line's newline stays.
  const ind = heredoc('<<EOT\n  a\n  %{~ if x ~}\n  b\n  %{~ endif ~}\n  c\nEOT');
  assert.deepEqual(shape(ind.parts), [L('  a\n'), { kind: 'TemplateIf', cond: v('x'), then: [L('  b\n')], else: [] }, L('  c\n')]);
});

test('if / else / endif and for / endfor directives', () => {
  const t = expr('"%{if a}yes%{else}no%{endif}"') as Template;
  assert.deepEqual(shape(t.parts), [{ kind: 'TemplateIf', cond: v('a'), then: [L('yes')], else: [L('no')] }]);
  assert.equal(at(t.parts[0]!.range), '1:2@1-1:29@28');
  const f = expr('"%{ for k, v in m }${k}=${v},%{ endfor }"') as Template;
  assert.deepEqual(shape(f.parts), [{ kind: 'TemplateFor', keyVar: 'k', valueVar: 'v', collection: v('m'), body: [I(v('k')), L('='), I(v('v')), L(',')] }]);
  const nested = expr('"%{for x in xs}%{if x}[${x}]%{endif}%{endfor}"') as Template;
  assert.deepEqual(shape(nested.parts), [
    {
      kind: 'TemplateFor',
      valueVar: 'x',
      collection: v('xs'),
      body: [{ kind: 'TemplateIf', cond: v('x'), then: [L('['), I(v('x')), L(']')], else: [] }],
    },
  ]);
});

test('template directive errors', () => {
  const cases: [string, string][] = [
    ['"%{ endif }"', 'Unexpected endif directive'],
    ['"%{ if x }a"', 'Unexpected end of template'],
    ['"%{ if x }a%{ endfor }"', 'Unexpected endfor directive'],
    ['"%{ for x in y }a%{ else }b%{ endfor }"', 'Unexpected else directive'],
    ['"%{ iff x }"', 'Invalid template control keyword'],
    ['"%{ 1 }"', 'Invalid template directive'],
    ['"%{ for in y }%{ endfor }"', "Invalid 'for' directive"],
    ['"%{ if x y }%{ endif }"', 'Extra characters in if marker'],
    ['"${a b}"', 'Extra characters after interpolation expression'],
    ['"${a:b}"', 'Extra characters after interpolation expression'],
    ['"${a"', 'Unclosed template interpolation sequence'],
  ];
  for (const [src, summary] of cases) {
    const r = parseExpression(src, 't.hcl');
    assert.equal(r.diagnostics[0]?.summary, summary, src);
  }
  const kw = parseExpression('"%{ endfro }"', 't.hcl');
  assert.equal(kw.diagnostics[0]!.detail, '"endfro" is not a valid template control keyword.');
  assert.equal(kw.diagnostics[0]!.suggestion, 'endfor');
});

test('unterminated strings: at a line break, and at the end of the file', () => {
  const r = parseFile('a = "abc\nb = 2\n', 't.hcl');
  assert.deepEqual(summaries(r.diagnostics), ['Unterminated template string']);
  assert.equal(at(r.diagnostics[0]!.subject), '1:9@8-1:9@8');
  // the next line still parses
  assert.deepEqual(
    r.file.body.items.map((i) => (i.kind === 'Attribute' ? i.name : '')),
    ['a', 'b'],
  );
  const eof = parseFile('a = "abc', 't.hcl');
  assert.deepEqual(summaries(eof.diagnostics), ['Unterminated template string']);
  assert.equal(at(eof.diagnostics[0]!.subject), '1:9@8-1:9@8'); // at the end of the file, as hclsyntax
});

test('heredocs keep their text verbatim, including indentation and blank lines', () => {
  assert.equal(text(heredoc('<<EOT\nFoo\nBar\nBaz\nEOT').parts), 'Foo\nBar\nBaz\n');
  assert.equal(text(heredoc('<<EOT\n    Foo\n      Bar\n  EOT').parts), '    Foo\n      Bar\n');
  assert.equal(text(heredoc('<<EOT\n    Foo\n    ${bar}\n  EOT').parts), '    Foo\n    <bar>\n');
  assert.equal(text(heredoc('<<EOT\nFoo\n\nBar\nEOT').parts), 'Foo\n\nBar\n');
  assert.equal(text(heredoc('<<EOT\n    NOT EOT\n  EOT').parts), '    NOT EOT\n');
  assert.equal(text(heredoc('<<EOT\nEOT').parts), '');
  assert.equal(text(heredoc('<<EOT\na $${b} %%{c}\nEOT').parts), 'a ${b} %{c}\n');
  // escapes are not decoded in heredocs
  assert.equal(text(heredoc('<<EOT\na\\nb\nEOT').parts), 'a\\nb\n');
  // CRLF line endings are kept as written
  assert.equal(text(heredoc('<<EOT\r\na\r\nEOT\r').parts), 'a\r\n');
});

test('flush heredocs remove the smallest common indentation (hclsyntax rules)', () => {
  assert.equal(text(heredoc('<<-EOT\n    Foo\n    Bar\n  EOT').parts), 'Foo\nBar\n');
  assert.equal(text(heredoc('<<-EOT\n    Foo\n      Bar\n    Baz\n  EOT').parts), 'Foo\n  Bar\nBaz\n');
  assert.equal(text(heredoc('<<-EOT\n    Foo\n  Bar\n    Baz\n  EOT').parts), '  Foo\nBar\n  Baz\n');
  assert.equal(text(heredoc('<<-EOT\n    Foo\n      ${bar}\n    Baz\n  EOT').parts), 'Foo\n  <bar>\nBaz\n');
  // a line starting with an interpolation counts as zero indentation
  assert.equal(text(heredoc('<<-EOT\n    Foo\n${bar}\n    Baz\n  EOT').parts), '    Foo\n<bar>\n    Baz\n');
  // a tab is one character of indentation
  assert.equal(text(heredoc('<<-EOT\n\tFoo\n  Bar\n  EOT').parts), 'Foo\n Bar\n');
  // blank lines do not count
  assert.equal(text(heredoc('<<-EOT\n    Foo\n\n    Bar\n  EOT').parts), 'Foo\n\nBar\n');
  // Unicode spaces count as one character each
  assert.equal(text(heredoc('<<-EOT\n    \u2003\u2003Foo\n    Bar\n  EOT').parts), '\u2003\u2003Foo\nBar\n');
  // literal ranges move past the removed indentation
  const h = heredoc('<<-EOT\n  ab\nEOT');
  assert.equal(at(h.parts[0]!.range), '2:3@13-3:1@16');
});

test('an unterminated heredoc is reported at its introducer', () => {
  const r = parseFile('a = <<EOT\nhello\n', 't.hcl');
  assert.deepEqual(summaries(r.diagnostics), ['Unterminated template string']);
  assert.equal(at(r.diagnostics[0]!.subject), '1:5@4-2:1@10');
});

test('parseTemplate: bare templates, with unwrapping left to the consumer', () => {
  const r = parseTemplate('Hello, ${name}!\n%{ if admin }(admin)%{ endif }', 't.tmpl');
  assert.deepEqual(r.diagnostics, []);
  assert.deepEqual(shape(r.expr), tmpl(L('Hello, '), I(v('name')), L('!\n'), { kind: 'TemplateIf', cond: v('admin'), then: [L('(admin)')], else: [] }));
  assert.deepEqual(shape(parseTemplate('${true}', 't').expr), tmpl(I(lit(true))));
  assert.deepEqual(shape(parseTemplate('', 't').expr), tmpl(L('')));
  assert.deepEqual(shape(parseTemplate('a $ b % c $', 't').expr), tmpl(L('a $ b % c $')));
  const bad = parseTemplate('%{ if x }', 't');
  assert.deepEqual(summaries(bad.diagnostics), ['Unexpected end of template']);
});

test('labels must not contain template sequences', () => {
  const r = parseFile('a "x${y}" {}\n', 't.hcl');
  assert.deepEqual(summaries(r.diagnostics), ['Invalid string literal']);
  assert.equal(at(r.diagnostics[0]!.subject), '1:5@4-1:7@6');
});

test('string literals are NFC-normalized, as cty strings are', () => {
  assert.deepEqual(exprShape('"an\u0303o"'), tmpl(L('a\u00f1o')));
  assert.deepEqual(exprShape('"👩‍👩‍👧‍👦"'), tmpl(L('👩‍👩‍👧‍👦')));
  // A bare object key is a string value too (hclsyntax: cty.StringVal of the keyword).
  const obj = parseExpression('{ an\u0303o = 1 }', 't.hcl').expr;
  assert.ok(obj.kind === 'ObjectCons' && obj.items[0]!.key.kind === 'Literal');
  assert.equal(obj.items[0]!.key.value, 'a\u00f1o');
});
