import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ev, fails } from './helpers.js';

test('strings are UTF-8 byte strings (like starlark-go)', () => {
  assert.equal(ev('len("Ω")'), 2);
  assert.equal(ev('repr("aΩb"[1])'), '"\\xce"');
  assert.equal(ev('"aΩb"[1:3]'), 'Ω');
  assert.deepEqual(ev('list("aΩ".codepoints())'), ['a', 'Ω']);
  assert.deepEqual(ev('list("aΩ".codepoint_ords())'), [97, 937]);
  assert.deepEqual(ev('list("ab".elem_ords())'), [97, 98]);
  assert.equal(ev('ord("Ω")'), 937);
  assert.equal(ev('chr(937)'), 'Ω');
  assert.equal(ev('"Ωmega".upper()'), 'ΩMEGA');
});

test('indexing and slicing with steps', () => {
  assert.deepEqual(ev('["hello"[1], "hello"[-1], "hello"[1:3], "hello"[::-1], "hello"[::2], "hello"[10:]]'), ['e', 'o', 'el', 'olleh', 'hlo', '']);
  assert.deepEqual(ev('[1, 2, 3, 4, 5][4:0:-2]'), [5, 3]);
  assert.match(fails('x = "abc"[3]').msg, /string index 3 out of range \[-3:2\]/);
  assert.match(fails('x = [1][0:1:0]').msg, /zero is not a valid slice step/);
});

test('string methods', () => {
  assert.deepEqual(ev('"  a b  ".strip()'), 'a b');
  assert.deepEqual(ev('"xxaxx".strip("x")'), 'a');
  assert.deepEqual(ev('"a,b,,c".split(",")'), ['a', 'b', '', 'c']);
  assert.deepEqual(ev('"a b  c".split()'), ['a', 'b', 'c']);
  assert.deepEqual(ev('"a,b,c".rsplit(",", 1)'), ['a,b', 'c']);
  assert.deepEqual(ev('"a,b,c".split(",", 1)'), ['a', 'b,c']);
  assert.equal(ev('"-".join(["a", "b"])'), 'a-b');
  assert.equal(ev('"aaa".replace("a", "b", 2)'), 'bba');
  assert.deepEqual(ev('["abc".find("c"), "abc".find("z"), "abcabc".rfind("b"), "abc".index("b")]'), [2, -1, 4, 1]);
  assert.deepEqual(ev('["abc".startswith("ab"), "abc".endswith(("x", "c")), "Hello World".title(), "hello".capitalize()]'), [
    true,
    true,
    'Hello World',
    'Hello',
  ]);
  assert.deepEqual(ev('"a=b=c".partition("=")'), ['a', '=', 'b=c']);
  assert.deepEqual(ev('"a\\nb\\n".splitlines()'), ['a', 'b']);
  assert.deepEqual(ev('["abc".isalpha(), "123".isdigit(), " ".isspace(), "ABC".isupper(), "abc".islower()]'), [true, true, true, true, true]);
  assert.deepEqual(ev('["prefix_x".removeprefix("prefix_"), "x.txt".removesuffix(".txt"), "banana".count("a")]'), ['x', 'x', 3]);
  assert.match(fails('x = "abc".index("z")').msg, /index: substring not found/);
  assert.match(fails('x = "a".nosuch()').msg, /string has no \.nosuch field or method/);
});

test('% formatting', () => {
  assert.equal(ev('"%s-%d-%r-%x-%o-%X" % ("a", 42, "q", 255, 8, 255)'), 'a-42-"q"-ff-10-FF');
  assert.equal(ev('"%(name)s is %(age)d" % {"name": "Al", "age": 3}'), 'Al is 3');
  assert.equal(ev('"100%%" % ()'), '100%');
  assert.equal(ev('"%c%c" % (65, "Ω")'), 'AΩ');
  assert.match(fails('x = "%d" % "a"').msg, /%d format requires integer/);
  assert.match(fails('x = "%s %s" % ("a",)').msg, /not enough arguments for format string/);
  assert.match(fails('x = "%s" % ("a", "b")').msg, /too many arguments for format string/);
});

test('str.format', () => {
  assert.equal(ev('"{} and {}".format(1, "x")'), '1 and x');
  assert.equal(ev('"{1}{0}".format("a", "b")'), 'ba');
  assert.equal(ev('"{name}!r={name!r}".format(name="n")'), 'n!r="n"');
  assert.equal(ev('"{{}}".format()'), '{}');
  assert.match(fails('x = "{} {0}".format(1, 2)').msg, /cannot switch from automatic field numbering/);
  assert.match(fails('x = "{".format()').msg, /unmatched '\{'/);
});

test('bytes', () => {
  assert.equal(ev('len(b"\\xff\\x00")'), 2);
  assert.equal(ev('repr(b"ab"[0])'), 'b"a"');
  assert.deepEqual(ev('list(b"ab".elems())'), [97, 98]);
  assert.equal(ev('repr(bytes("Ω"))'), 'b"Ω"');
  assert.equal(ev('str(b"abc")'), 'abc');
  assert.match(fails('x = b"ab" + b"c"').msg, /unknown binary op: bytes \+ bytes/); // as in starlark-go
});
