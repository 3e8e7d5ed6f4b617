import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sqlParameters } from '../../src/steps/sql/parameters.js';

test('named parameters in order of first use, each once', () => {
  assert.deepEqual(sqlParameters('SELECT * FROM t WHERE a = @a AND b = @b OR a = @a'), ['a', 'b']);
});

test('strings, quoted identifiers, comments, dollar quotes and operators are not parameters', () => {
  const sql = `SELECT '@no', "@no" FROM t -- @no
    /* @no */ WHERE tags @> '{}' AND x @@ q AND body = $$ @no $$ AND id = @id AND e = u@host`;
  assert.deepEqual(sqlParameters(sql), ['id']);
});
