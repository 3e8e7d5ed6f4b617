import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sqlParameters, toPlaceholders } from '../../src/steps/sql/parameters.js';

test('named parameters in order of first use, each once', () => {
  assert.deepEqual(sqlParameters('SELECT * FROM t WHERE a = @a AND b = @b OR a = @a'), ['a', 'b']);
});

test('strings, quoted identifiers, comments, dollar quotes and operators are not parameters', () => {
  const sql = `SELECT '@no', "@no" FROM t -- @no
    /* @no */ WHERE tags @> '{}' AND x @@ q AND body = $$ @no $$ AND id = @id AND e = u@host`;
  assert.deepEqual(sqlParameters(sql), ['id']);
  // An escape string's backslash-quote does not end it; a dollar tag may hold digits.
  assert.deepEqual(sqlParameters("SELECT E'it\\'s @no' AS a, $f1$ @no $f1$ AS b, @id AS c"), ['id']);
});

test("each engine's placeholders: $n and ?n bind a name once, ? binds it at every occurrence", () => {
  const sql = "SELECT * FROM t WHERE a = @a AND note <> '@a' AND b = @b OR a = @a";
  const parameters = sqlParameters(sql);
  assert.deepEqual(toPlaceholders(sql, parameters, 'dollar'), {
    text: "SELECT * FROM t WHERE a = $1 AND note <> '@a' AND b = $2 OR a = $1",
    occurrences: undefined,
  });
  assert.deepEqual(toPlaceholders(sql, parameters, 'numbered'), {
    text: "SELECT * FROM t WHERE a = ?1 AND note <> '@a' AND b = ?2 OR a = ?1",
    occurrences: undefined,
  });
  assert.deepEqual(toPlaceholders(sql, parameters, 'question'), {
    text: "SELECT * FROM t WHERE a = ? AND note <> '@a' AND b = ? OR a = ?",
    occurrences: [0, 1, 0],
  });
});
