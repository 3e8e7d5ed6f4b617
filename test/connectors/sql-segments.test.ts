/**
 * SQL text cut into code, strings, quoted identifiers and comments (src/connectors/sql-segments.ts),
 * the one lexer of the sql step's parameters, the OpenAPI result columns, a migration's transaction
 * control and the refusal positions: each kind of segment, the escapes inside them, and text that
 * ends inside one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sqlSegments, type SqlSegmentOptions } from '../../src/connectors/sql-segments.js';

/** Each segment as `kind:text`, `!` after the kind for an open one. */
function cut(sql: string, options: SqlSegmentOptions = {}): string[] {
  return sqlSegments(sql, options).map((s) => `${s.kind}${s.open ? '!' : ''}:${sql.slice(s.start, s.end)}`);
}

test("'' strings: a doubled quote stays inside; E'' strings take backslash escapes too, plain ones do not", () => {
  assert.deepEqual(cut("SELECT 'it''s', x"), ['code:SELECT ', "string:'it''s'", 'code:, x']);
  assert.deepEqual(cut("SELECT E'it\\'s @x', y"), ['code:SELECT E', "string:'it\\'s @x'", 'code:, y']);
  assert.deepEqual(cut("SELECT e'a\\\\', y"), ['code:SELECT e', "string:'a\\\\'", 'code:, y']);
  // A word ending in E is no escape-string prefix: the backslash is a character, the quote ends it.
  assert.deepEqual(cut("SELECT typE'a\\', y"), ['code:SELECT typE', "string:'a\\'", 'code:, y']);
  assert.deepEqual(cut("SELECT 'open"), ['code:SELECT ', "string!:'open"]);
});

test('"" quoted identifiers, with "" inside; open ones to the end', () => {
  assert.deepEqual(cut('SELECT "a ""b"" -- c", d'), ['code:SELECT ', 'identifier:"a ""b"" -- c"', 'code:, d']);
  assert.deepEqual(cut('SELECT "a'), ['code:SELECT ', 'identifier!:"a']);
});

test('dollar quoting: $$ and $tag$ bodies, the tag closing only itself; never right after a word', () => {
  assert.deepEqual(cut("AS $$ BEGIN 'x'; COMMIT; END $$;"), ['code:AS ', "string:$$ BEGIN 'x'; COMMIT; END $$", 'code:;']);
  assert.deepEqual(cut('AS $fn1$ a $$ b $fn1$ x'), ['code:AS ', 'string:$fn1$ a $$ b $fn1$', 'code: x']);
  assert.deepEqual(cut('SELECT price$usd$ FROM t'), ['code:SELECT price$usd$ FROM t']);
  // $1 (a positional parameter) opens nothing.
  assert.deepEqual(cut('WHERE a = $1 AND b = $2'), ['code:WHERE a = $1 AND b = $2']);
  assert.deepEqual(cut('AS $x$ body'), ['code:AS ', 'string!:$x$ body']);
});

test('line comments end before the line end; block comments nest only when asked (PostgreSQL)', () => {
  assert.deepEqual(cut('a -- b\nc'), ['code:a ', 'comment:-- b', 'code:\nc']);
  assert.deepEqual(cut('a -- b'), ['code:a ', 'comment:-- b']);
  const nested = 'a /* b /* c */ d */ e';
  assert.deepEqual(cut(nested, { nestedComments: true }), ['code:a ', 'comment:/* b /* c */ d */', 'code: e']);
  // SQLite and MySQL end the comment at the first */.
  assert.deepEqual(cut(nested), ['code:a ', 'comment:/* b /* c */', 'code: d */ e']);
  assert.deepEqual(cut('a /* b /* c */', { nestedComments: true }), ['code:a ', 'comment!:/* b /* c */']);
  assert.deepEqual(cut('a /* b'), ['code:a ', 'comment!:/* b']);
  // A quote inside a comment, and a comment marker inside a string, are characters.
  assert.deepEqual(cut("/* it's */ '--x' -- 'y"), ["comment:/* it's */", 'code: ', "string:'--x'", 'code: ', "comment:-- 'y"]);
});

test('the segments cover the text, in order, with no empty code between two others', () => {
  const sql = "SELECT 'a''b' || E'\\n', \"q\", $$d$$ /* c */ -- e\nFROM t";
  const segments = sqlSegments(sql);
  assert.equal(segments.map((s) => sql.slice(s.start, s.end)).join(''), sql);
  for (let i = 1; i < segments.length; i++) assert.equal(segments[i]!.start, segments[i - 1]!.end);
  assert.ok(segments.every((s) => s.end > s.start));
  assert.deepEqual(sqlSegments(''), []);
});
