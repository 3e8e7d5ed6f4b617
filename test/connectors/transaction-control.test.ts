/**
 * The transaction control a migration may hold (src/connectors/postgres/transaction-control.ts),
 * which `svc check --database` refuses to apply inside its own transaction: found in statements,
 * not in strings, function bodies or comments, whose nesting PostgreSQL's check asks for.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { transactionControl } from '../../src/connectors/postgres/transaction-control.js';

test('a statement that ends or starts a transaction, as written; none in strings, bodies or comments', () => {
  assert.equal(transactionControl('CREATE TABLE t (a int);\n  commit;\n'), 'commit');
  assert.equal(
    transactionControl('INSERT INTO t VALUES (1); START TRANSACTION ISOLATION LEVEL SERIALIZABLE;'),
    'START TRANSACTION ISOLATION LEVEL SERIALIZABLE',
  );
  const quiet =
    "INSERT INTO notes VALUES ('x; COMMIT'), (E'\\'; COMMIT'); CREATE FUNCTION f() RETURNS void AS $body$ BEGIN COMMIT; END $body$ LANGUAGE plpgsql; -- COMMIT;\n/* ; ROLLBACK */";
  assert.equal(transactionControl(quiet), undefined);
  // A comment before the keyword is blanked, not the statement.
  assert.equal(transactionControl('SELECT 1; /* done */ COMMIT'), 'COMMIT');
});

test("block comments nest on PostgreSQL's request only: SQLite ends them at the first */", () => {
  const sql = 'CREATE TABLE t (a int); /* old: /* a note */ ; COMMIT; */';
  assert.equal(transactionControl(sql, { nestedComments: true }), undefined);
  assert.equal(transactionControl(sql), 'COMMIT');
});
