import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scan } from '../../src/hcl/scanner.js';
import { T, type Token } from '../../src/hcl/tokens.js';
import { at } from './helpers.js';

const NAMES = new Map<number, string>(Object.entries(T).map(([k, v]) => [v, k]));
const kinds = (src: string, mode: 'normal' | 'template' = 'normal') =>
  scan(src, 't', undefined, mode).map((t: Token) => `${NAMES.get(t.type)}:${src.slice(t.start, t.end)}`);

test('positions: columns count code points, bytes count UTF-8', () => {
  const src = 'a = "ЖЖ👩"\nb = 1';
  const toks = scan(src, 't');
  const cquote = toks.find((t) => t.type === T.CQuote)!;
  // a=1 ' '=2 '='=3 ' '=4 '"'=5 Ж=6 Ж=7 👩=8 '"'=9; bytes: 5 + 2 + 2 + 4 = 13
  assert.equal(at(cquote.range), '1:9@13-1:10@14');
  const b = toks.find((t) => t.type === T.Ident && src.slice(t.start, t.end) === 'b')!;
  assert.equal(at(b.range), '2:1@15-2:2@16');
});

test('positions: CRLF newlines, tabs count as one column, a BOM is skipped but counted in bytes', () => {
  const toks = scan('a = 1\r\n\tb = 2', 't');
  const nl = toks.find((t) => t.type === T.Newline)!;
  assert.equal(at(nl.range), '1:6@5-2:1@7');
  const b = toks.find((t) => t.type === T.Ident && t.start === 8)!;
  assert.equal(at(b.range), '2:2@8-2:3@9');
  const bom = scan('\ufeffa = 1', 't');
  assert.equal(at(bom[0]!.range), '1:1@3-1:2@4');
});

test('positions: a start position offsets everything', () => {
  const toks = scan('x + y', 't', { line: 10, column: 5, byte: 100 });
  assert.equal(at(toks[0]!.range), '10:5@100-10:6@101');
  assert.equal(at(toks[2]!.range), '10:9@104-10:10@105');
});

test('operators and punctuation', () => {
  assert.deepEqual(kinds('== != <= >= && || :: ... => = < > ! ? : . , * / % + - [ ] ( )'), [
    'EqualOp:==',
    'NotEqual:!=',
    'LessThanEq:<=',
    'GreaterThanEq:>=',
    'And:&&',
    'Or:||',
    'DoubleColon:::',
    'Ellipsis:...',
    'FatArrow:=>',
    'Equal:=',
    'LessThan:<',
    'GreaterThan:>',
    'Bang:!',
    'Question:?',
    'Colon::',
    'Dot:.',
    'Comma:,',
    'Star:*',
    'Slash:/',
    'Percent:%',
    'Plus:+',
    'Minus:-',
    'OBrack:[',
    'CBrack:]',
    'OParen:(',
    'CParen:)',
    'EOF:',
  ]);
});

test('numbers are scanned greedily as in hclsyntax (so foo.0.1 holds the number 0.1)', () => {
  assert.deepEqual(kinds('1 1.5 1e5 1.5E-3 1.2.3'), ['NumberLit:1', 'NumberLit:1.5', 'NumberLit:1e5', 'NumberLit:1.5E-3', 'NumberLit:1.2.3', 'EOF:']);
  assert.deepEqual(kinds('a.0.1 1.'), ['Ident:a', 'Dot:.', 'NumberLit:0.1', 'NumberLit:1', 'Dot:.', 'EOF:']);
});

test('identifiers may contain dashes and Unicode letters', () => {
  assert.deepEqual(kinds('foo-bar _x été'), ['Ident:foo-bar', 'Ident:_x', 'Ident:été', 'EOF:']);
});

test('comments: line comments become a newline, inline comments vanish', () => {
  assert.deepEqual(kinds('a # c\nb // d\nc /* e\n f */ d\n# end'), [
    'Ident:a',
    'Newline:# c\n',
    'Ident:b',
    'Newline:// d\n',
    'Ident:c',
    'Ident:d',
    'Newline:\n',
    'EOF:',
  ]);
});

test('quoted templates with nested braces inside interpolation', () => {
  assert.deepEqual(kinds('"a${ {b = 1} }c$${x}%%{y}"'), [
    'OQuote:"',
    'QuotedLit:a',
    'TemplateInterp:${',
    'OBrace:{',
    'Ident:b',
    'Equal:=',
    'NumberLit:1',
    'CBrace:}',
    'TemplateSeqEnd:}',
    'QuotedLit:c$${x}%%{y}',
    'CQuote:"',
    'EOF:',
  ]);
  assert.deepEqual(kinds('"${~x~}"'), ['OQuote:"', 'TemplateInterp:${~', 'Ident:x', 'TemplateSeqEnd:~}', 'CQuote:"', 'EOF:']);
  assert.deepEqual(kinds('"a\\"b"'), ['OQuote:"', 'QuotedLit:a\\"b', 'CQuote:"', 'EOF:']);
});

test('a quoted string ends at a line break (zero-width QuotedNewline)', () => {
  assert.deepEqual(kinds('"abc\nd'), ['OQuote:"', 'QuotedLit:abc', 'QuotedNewline:', 'Newline:\n', 'Ident:d', 'EOF:']);
});

test('heredocs: introducer includes its newline, the end marker and its newline are separate tokens', () => {
  assert.deepEqual(kinds('<<EOT\nhello ${x}\n  EOT\nb'), [
    'OHeredoc:<<EOT\n',
    'StringLit:hello ',
    'TemplateInterp:${',
    'Ident:x',
    'TemplateSeqEnd:}',
    'StringLit:\n',
    'CHeredoc:  EOT',
    'Newline:\n',
    'Ident:b',
    'EOF:',
  ]);
  // A line that merely ends with the marker, or continues after an interpolation, does not close it.
  assert.deepEqual(kinds('<<-EOT\nNOT EOT\n${x}EOT\nEOT\n'), [
    'OHeredoc:<<-EOT\n',
    'StringLit:NOT EOT\n',
    'TemplateInterp:${',
    'Ident:x',
    'TemplateSeqEnd:}',
    'StringLit:EOT\n',
    'CHeredoc:EOT',
    'Newline:\n',
    'EOF:',
  ]);
  assert.deepEqual(kinds('<<EOT\r\nx\r\nEOT\r\n'), ['OHeredoc:<<EOT\r\n', 'StringLit:x\r\n', 'CHeredoc:EOT', 'Newline:\r\n', 'EOF:']);
  // `<<` not followed by an identifier and a newline is two less-than signs.
  assert.deepEqual(kinds('a << b'), ['Ident:a', 'LessThan:<', 'LessThan:<', 'Ident:b', 'EOF:']);
});

test('bare template mode', () => {
  assert.deepEqual(kinds('hi ${x}!\n%{if y}z%{endif}', 'template'), [
    'StringLit:hi ',
    'TemplateInterp:${',
    'Ident:x',
    'TemplateSeqEnd:}',
    'StringLit:!\n',
    'TemplateControl:%{',
    'Ident:if',
    'Ident:y',
    'TemplateSeqEnd:}',
    'StringLit:z',
    'TemplateControl:%{',
    'Ident:endif',
    'TemplateSeqEnd:}',
    'EOF:',
  ]);
});

test('characters that are not HCL become their own tokens', () => {
  assert.deepEqual(kinds("& | ^ ~ ; ` ' @"), [
    'BitwiseAnd:&',
    'BitwiseOr:|',
    'BitwiseXor:^',
    'BitwiseNot:~',
    'Semicolon:;',
    'Backtick:`',
    "Apostrophe:'",
    'Invalid:@',
    'EOF:',
  ]);
});
