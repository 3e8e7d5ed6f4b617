/**
 * Where a SQLite or MySQL refusal points in the statement (src/connectors/refusal-position.ts): the
 * word or the quoted rest of the text the message names, found outside strings and comments, as a
 * 1-based character offset (PostgreSQL's `position`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { continuationPosition, identifierPosition } from '../../src/connectors/refusal-position.js';

test('a named column or table: its first place as a word, outside strings and comments, case-insensitive', () => {
  const text = "SELECT 'titel' AS label, -- titel\n /* titel */ subtitel, Titel FROM t";
  assert.equal(identifierPosition(text, 'titel'), text.indexOf('Titel') + 1);
  // A qualified name is looked for by its last part; a name the text does not hold has no place.
  assert.equal(identifierPosition('SELECT * FROM nope', 'shop.nope'), 15);
  assert.equal(identifierPosition('SELECT 1', 'nope'), undefined);
  // A token that is no word (a syntax error's `near ")"`) is found as it is.
  assert.equal(identifierPosition('SELECT (1))', ')'), 10);
  // A double-quoted identifier is code (refusals name them), and a quote inside it opens no string.
  assert.equal(identifierPosition('SELECT "it\'s", titel FROM t', 'titel'), 16);
  assert.equal(identifierPosition('SELECT a FROM "Nope"', 'Nope'), 16);
  // Characters, not UTF-16 units: an emoji before the word counts once.
  assert.equal(identifierPosition("SELECT '😀', nope", 'nope'), 13);
});

test("MySQL's near '...' at line n: where the text goes on as quoted, on that line; the end for an empty rest", () => {
  const text = 'SELECT a\n  FROM t\n WHERE a = ? FORM\n';
  assert.equal(continuationPosition(text, 'FORM\n', 3), text.indexOf('FORM') + 1);
  // The same rest on two lines: the one on the line the server names.
  const twice = 'SELECT x y\nSELECT x y';
  assert.equal(continuationPosition(twice, 'y', 2), twice.lastIndexOf('y') + 1);
  assert.equal(continuationPosition('SELECT a FROM', '', 1), 'SELECT a FROM'.length + 1);
  assert.equal(continuationPosition('SELECT 1', 'nowhere', 1), undefined);
});
