/**
 * src/regex keeps JavaScript's meaning: for random patterns (JavaScript syntax, `u` mode, built from
 * the constructs where JavaScript and RE2 differ — `.`, `\s`, `\S`, `[]`, `[^]`, escapes, Unicode
 * properties, classes with dashes) and random short strings, the linear engine answers exactly what
 * `RegExp` answers: `test`, and the text `replace` produces with `$&`. The strings are short, so the
 * backtracking reference answers at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileRegex } from '../../src/regex/index.js';

const LITERALS = [
  'a',
  'b',
  'A',
  '1',
  '_',
  'é',
  '😀',
  ' ',
  '\\.',
  '\\-',
  '\\/',
  '\\n',
  '\\t',
  '\\u00e9',
  '\\u{1F600}',
  '\\uD83D\\uDE00',
  '\\x41',
  '\\cJ',
  '\\0',
];
const ESCAPES = ['.', '\\s', '\\S', '\\d', '\\D', '\\w', '\\W', '\\p{L}', '\\p{Letter}', '\\P{Lu}', '\\p{sc=Latin}', '\\p{Nd}', '[]', '[^]'];
const CLASS_ITEMS = ['a', 'b-d', '-', '\\s', '\\S', '\\d', '\\w', '\\b', 'é', '😀', '\\-', '[', '\\]', '^', 'A-Z', '\\u2028', '\\p{Lu}'];
const ASSERTIONS = ['^', '$', '\\b', '\\B'];
const QUANTIFIERS = ['', '', '*', '+', '?', '{0,2}', '{1}', '{2,}', '*?', '+?', '??', '{1,3}?'];
const ALPHABET = ['a', 'b', 'A', 'd', '1', '_', '-', ' ', '\t', '\n', '\r', '\v', '\b', '\u2028', '\u00a0', '\ufeff', 'é', 'É', '😀', '.', '[', ']', '^', '/'];

const charClass = fc
  .tuple(fc.boolean(), fc.array(fc.constantFrom(...CLASS_ITEMS), { minLength: 1, maxLength: 4 }))
  .map(([negated, items]) => `[${negated ? '^' : ''}${items.join('')}]`);

/**
 * Patterns of the constructs above. `quantifiedGroups`: whether a group may be repeated. A repeated group
 * whose body can match the empty string (`(|a)*`) is where JavaScript and RE2 pick different matches
 * (JavaScript refuses an empty iteration and backtracks; RE2, like Perl, keeps it): the set of strings
 * that match is the same, so `test` agrees, but the text replaced may not. docs/fields-and-validation.md says so.
 */
function patterns(quantifiedGroups: boolean): fc.Arbitrary<string> {
  return fc.letrec<{ alt: string; seq: string; term: string; atom: string; group: string }>((tie) => ({
    alt: fc.array(tie('seq'), { minLength: 1, maxLength: 3 }).map((seqs) => seqs.join('|')),
    seq: fc.array(tie('term'), { minLength: 0, maxLength: 4 }).map((terms) => terms.join('')),
    term: fc.oneof(
      { weight: 5, arbitrary: fc.tuple(tie('atom'), fc.constantFrom(...QUANTIFIERS)).map(([a, q]) => a + q) },
      { weight: 1, arbitrary: fc.constantFrom(...ASSERTIONS) },
      { weight: 1, arbitrary: quantifiedGroups ? fc.tuple(tie('group'), fc.constantFrom(...QUANTIFIERS)).map(([g, q]) => g + q) : tie('group') },
    ),
    atom: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...LITERALS) },
      { weight: 3, arbitrary: fc.constantFrom(...ESCAPES) },
      { weight: 2, arbitrary: charClass },
    ),
    group: fc.tuple(fc.constantFrom('(', '(?:'), tie('alt')).map(([open, body]) => `${open}${body})`),
  })).alt;
}

const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 8 }).map((cs) => cs.join(''));

/** The pattern, or undefined when RegExp refuses it (compileRegex does too: see below). */
function jsRegExp(source: string, flags: string): RegExp | undefined {
  try {
    return new RegExp(source, flags);
  } catch {
    return undefined;
  }
}

test('the linear engine answers test() as RegExp does, on random patterns and strings', () => {
  fc.assert(
    fc.property(patterns(true), fc.array(text, { minLength: 1, maxLength: 6 }), (source, texts) => {
      // `\B` between the halves of a surrogate pair: see the replace() property below.
      fc.pre(!source.includes('\\B'));
      const js = jsRegExp(source, 'u');
      if (js === undefined) return;
      const linear = compileRegex(source);
      for (const s of texts) assert.equal(linear.test(s), js.test(s), `/${source}/u.test(${JSON.stringify(s)})`);
    }),
    { numRuns: 3000, seed: 20261124 },
  );
});

test('the linear engine replaces what String.prototype.replace does, on random patterns and strings', () => {
  fc.assert(
    fc.property(patterns(false), fc.array(text, { minLength: 1, maxLength: 6 }), (source, texts) => {
      // V8 matches `\B` between the two halves of a surrogate pair in `u` mode ('a😀'.replace(/\B/gu, '-')
      // is 'a\uD83D-\uDE00-'); RE2 does not split a character, which is what `u` mode means.
      fc.pre(!source.includes('\\B'));
      const js = jsRegExp(source, 'gu');
      if (js === undefined) return;
      const linear = compileRegex(source);
      for (const s of texts) assert.equal(linear.replaceAll(s, '<$&>'), s.replace(js, '<$&>'), `${JSON.stringify(s)}.replace(/${source}/gu, '<$&>')`);
    }),
    { numRuns: 3000, seed: 20261124 },
  );
});

test('what RegExp refuses, compileRegex refuses', () => {
  for (const source of ['(', '[b-a]', 'a**', '\\-', '{', 'x{2,1}', '(?<n>a)(?<n>b)', '\\p{Nope}']) {
    assert.throws(() => compileRegex(source), { name: 'RegexError' }, source);
  }
});

test('groups: $1 and $<name> expand as in JavaScript', () => {
  assert.equal(compileRegex('(\\w+) (?<last>\\w+)').replaceAll('john smith', '$<last>, $1 ($$)'), 'smith, john ($)');
  assert.equal(compileRegex('b*').replaceAll('abc', '-'), 'abc'.replace(/b*/gu, '-'));
  assert.equal(compileRegex('').replaceAll('😀a', '-'), '😀a'.replace(/(?:)/gu, '-'));
});
