/**
 * formatHcl, case by case: hclwrite's own formatting cases (hclwrite/format_test.go, what `terraform
 * fmt` does), written in svc's canonical form (no leading blank line, one final newline), then what
 * svc fmt adds (blank lines), and what it must never touch (comments, heredocs, template text, line
 * endings, a byte order mark).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatHcl, parseFile } from '../../src/hcl/index.js';

function fmt(src: string): string {
  const r = formatHcl(src, 'test.hcl');
  assert.ok(r.ok, `does not parse: ${r.ok ? '' : r.diagnostics.map((d) => d.summary).join('; ')}`);
  return r.text;
}

/** Formats `input`, expects `want`, and expects `want` to be left as it is. */
function check(input: string, want: string): void {
  assert.equal(fmt(input), want);
  assert.equal(fmt(want), want, 'formatting the result again changes it');
}

const HCLWRITE_CASES: readonly (readonly [string, string])[] = [
  ['', ''],
  ['a=1', 'a = 1\n'],
  ['a=b.c', 'a = b.c\n'],
  ['a=b[c]', 'a = b[c]\n'],
  ['a=b()[c]', 'a = b()[c]\n'],
  ['a=["hello"][0]', 'a = ["hello"][0]\n'],
  ['a=( b+2 )', 'a = (b + 2)\n'],
  ['a=( b*-2 )', 'a = (b * -2)\n'],
  ['a=(-2+1)', 'a = (-2 + 1)\n'],
  ['a=foo(1, -2,a*b, b,c)', 'a = foo(1, -2, a * b, b, c)\n'],
  ['a=foo(a,b...)', 'a = foo(a, b...)\n'],
  ['a=! true', 'a = !true\n'],
  ['a="hello ${ name }"', 'a = "hello ${name}"\n'],
  ['a="hello ${~ name ~}"', 'a = "hello ${~name~}"\n'],
  ['a="${b}${c}${ d } ${e}"', 'a = "${b}${c}${d} ${e}"\n'],
  ['a="%{if true}${var.foo}%{endif}"', 'a = "%{if true}${var.foo}%{endif}"\n'],
  ['b{}', 'b {}\n'],
  ['a="${\nhello\n}"', 'a = "${\n  hello\n}"\n'],
  ['a=foo(\n1,\n- 2,\na*b,\nb,\nc,\n)\n', 'a = foo(\n  1,\n  -2,\n  a * b,\n  b,\n  c,\n)\n'],
  ['a=b?c:d', 'a = b ? c : d\n'],
  ['a=[ [ ] ]', 'a = [[]]\n'],
  ['a=[for x in y : x]', 'a = [for x in y : x]\n'],
  ['a=[for x in [y] : x]', 'a = [for x in [y] : x]\n'],
  ['a=[\n[\nb\n]\n]\n', 'a = [\n  [\n    b\n  ]\n]\n'],
  ['a=[[\nb\n]]\n', 'a = [[\n  b\n]]\n'],
  // brackets that do not pair up line by line indent once per line that opens them
  ['a=[[\n[\nb\n]]\n]\n', 'a = [[\n  [\n    b\n  ]]\n]\n'],
  ['b {\na = 1\n}\n', 'b {\n  a = 1\n}\n'],
  ['b {a = 1}\n', 'b { a = 1 }\n'],
  ['a = 1\nbungle = 2\n', 'a      = 1\nbungle = 2\n'],
  ['a = 1\n\nbungle = 2\n', 'a = 1\n\nbungle = 2\n'],
  ['a = 1 # foo\nbungle = 2\n', 'a      = 1 # foo\nbungle = 2\n'],
  ['a = 1 # foo\nbungle = "bonce" # baz\n', 'a      = 1       # foo\nbungle = "bonce" # baz\n'],
  ['# here we go\na = 1 # foo\nbungle = "bonce" # baz\n', '# here we go\na      = 1       # foo\nbungle = "bonce" # baz\n'],
  ['a = 1 # foo\nbungle = "bonce" # baz\nzebra = "striped" # baz\n', 'a      = 1         # foo\nbungle = "bonce"   # baz\nzebra  = "striped" # baz\n'],
  // a value over several lines ends the run of aligned `=` (but not of comments)
  [
    'a = 1 # foo\nbungle = (\n    "bonce"\n) # baz\nzebra = "striped" # baz\n',
    'a = 1 # foo\nbungle = (\n  "bonce"\n)                 # baz\nzebra = "striped" # baz\n',
  ],
  [
    'a="apple"# foo\nbungle=(# woo parens\n"bonce"\n)# baz\nzebra="striped"# baz\n',
    'a = "apple" # foo\nbungle = (  # woo parens\n  "bonce"\n)                 # baz\nzebra = "striped" # baz\n',
  ],
  // widths are counted in grapheme clusters: a flag is one column
  ['𝒜 = 1 # foo\nbungle = "🇬🇧" # baz\nzebra = "striped" # baz\n', '𝒜      = 1         # foo\nbungle = "🇬🇧"       # baz\nzebra  = "striped" # baz\n'],
  ['foo {\n# ...\n}\n', 'foo {\n  # ...\n}\n'],
  ['foo = {\n# ...\n}\n', 'foo = {\n  # ...\n}\n'],
  ['foo = [{\n# ...\n}]\n', 'foo = [{\n  # ...\n}]\n'],
  ['foo {\nbar = [\n# ...\n]\n}\n', 'foo {\n  bar = [\n    # ...\n  ]\n}\n'],
  ['foo {\nbar = <<EOT\nFoo bar baz\nEOT\n}\n', 'foo {\n  bar = <<EOT\nFoo bar baz\nEOT\n}\n'],
  ['foo {\nbar = <<-EOT\n  Foo bar baz\nEOT\n}\n', 'foo {\n  bar = <<-EOT\n  Foo bar baz\nEOT\n}\n'],
  ['foo {\nbar = <<-EOT\n  ${{ blahblahblah = x }}\nEOT\n}\n', 'foo {\n  bar = <<-EOT\n  ${ { blahblahblah = x } }\nEOT\n}\n'],
  ['foo {\n  bar = <<-EOT\n  ${a}${b}${ c } ${d}\nEOT\n}\n', 'foo {\n  bar = <<-EOT\n  ${a}${b}${c} ${d}\nEOT\n}\n'],
  ['attr = provider :: framework :: example()', 'attr = provider::framework::example()\n'],
];

test("hclwrite's formatting cases", () => {
  for (const [input, want] of HCLWRITE_CASES) check(input, want);
});

test('an object constructor aligns its `=` like a body', () => {
  check('x = {\na = 1\nlonger = "two" # two\n}\n', 'x = {\n  a      = 1\n  longer = "two" # two\n}\n');
});

test('blank lines: none at the edges, never two in a row, the file ends with one newline', () => {
  check('\n\n\na = 1\n\n\n\nb = 2\n\n\n', 'a = 1\n\nb = 2\n');
  check('x {\n\n\n  a = 1\n}', 'x {\n\n  a = 1\n}\n');
  check('   \n\t\n', '');
});

test('one blank line between top-level blocks, and between a block and a top-level attribute', () => {
  check('a {}\nb {}\nc = 1\nd = 2\ne {\n}\n', 'a {}\n\nb {}\n\nc = 1\nd = 2\n\ne {\n}\n');
  // The blank line goes after the block, so a comment above the next one stays attached to it.
  check('a {\n}\n# about b\nb {}\n', 'a {\n}\n\n# about b\nb {}\n');
  check('a {}\n# after a\n\n# about b\nb {}\n', 'a {}\n# after a\n\n# about b\nb {}\n');
  // Nested blocks keep their blank lines as written.
  check('a {\n  b {}\n  c {}\n}\n', 'a {\n  b {}\n  c {}\n}\n');
});

test('comments keep every character, and a last line comment gains its newline', () => {
  check('a = 1 #   spaced  \t\n', 'a = 1 #   spaced  \t\n');
  check('/* a\n     b\n       c */\nx = 1 // two\n', '/* a\n     b\n       c */\nx = 1 // two\n');
  check('x = [ /* inline */ 1,2 ]\n', 'x = [/* inline */ 1, 2]\n');
  check('a = 1 # end', 'a = 1 # end\n');
  check('a = 1 /* end */', 'a = 1 /* end */\n');
  check('  # indented at the top\na = 1\n', '# indented at the top\na = 1\n');
});

test('heredoc and quoted text keep every character', () => {
  const heredoc = 'a {\n  b = <<-EOT\n\t  tab   \n    ${ x }   \n\n  EOT\n}\n';
  assert.equal(fmt(heredoc), 'a {\n  b = <<-EOT\n\t  tab   \n    ${x}   \n\n  EOT\n}\n');
  check('a = "  spaced   out  "\n', 'a = "  spaced   out  "\n');
  check('a = "%{ for x in xs ~}  ${x}  %{ endfor ~}"\n', 'a = "%{for x in xs~}  ${x}  %{endfor~}"\n');
});

test('an interpolation over several lines inside a heredoc does not shift the lines after it', () => {
  // hclwrite counts the closing `)}` but not the `${foo(` before it, and dedents the rest of the file.
  check(
    'a {\n  b {\n    q = <<EOT\n  x ${foo(1,\n2)} y\nEOT\n    r = 1\n  }\n}\n',
    'a {\n  b {\n    q = <<EOT\n  x ${foo(1,\n    2)} y\nEOT\n    r = 1\n  }\n}\n',
  );
});

test('line endings stay as written, and so does a byte order mark', () => {
  check('a=1\r\nbb=2\r\nc {}', 'a  = 1\r\nbb = 2\r\n\r\nc {}\r\n');
  check('\ufeffa=1\n', '\ufeffa = 1\n');
});

test('the steps of a traversal are not glued into a number', () => {
  // hclwrite prints `a.0.1`, which scans as the step 0.1 and means something else.
  check('x = a.0 .1\n', 'x = a.0 .1\n');
  check('x = a.0 .e5\n', 'x = a.0 .e5\n');
  check('x = a.0.b\n', 'x = a.0.b\n');
});

test('tabs and runs of spaces between tokens become the canonical spacing', () => {
  check('a\t=\t1\nblock\t"x"\t{\n\tb\t=\ttrue\n}\n', 'a = 1\n\nblock "x" {\n  b = true\n}\n');
});

test('a file that does not parse is refused with its diagnostics', () => {
  const src = 'a = \nb {\n';
  const r = formatHcl(src, 'bad.hcl');
  assert.equal(r.ok, false);
  assert.ok(!r.ok);
  assert.deepEqual(r.diagnostics, parseFile(src, 'bad.hcl').diagnostics);
  assert.ok(r.diagnostics.every((d) => d.subject?.filename === 'bad.hcl' && d.subject.start.line >= 1));
});
