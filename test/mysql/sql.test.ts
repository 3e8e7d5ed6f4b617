/**
 * The sql step and its catch blocks on MariaDB: the shared suites of test/sql-suite, and MySQL's
 * own column types as JSON (TINYINT(1) as boolean, BIGINT UNSIGNED exact, TIMESTAMP in UTC,
 * DATETIME as local time, BLOB as base64, FLOAT as its shortest decimal).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { catchSuite } from '../sql-suite/catch.js';
import { sqlSuite } from '../sql-suite/sql.js';
import { MARIADB } from './engine.js';
import { dropDatabases } from './helpers.js';

after(dropDatabases);

const COLUMNS = `
endpoint "GET /columns" {
  pipeline {
    sql "read" {
      query = "SELECT flag, small, doc, at, local, day, big, blob_col, fl FROM typed WHERE id = @id"
      args  = { id = 1 }
    }
    respond {
      body = steps.read.row
    }
  }
}
`;

sqlSuite(MARIADB, {
  endpoints: COLUMNS,
  setup: [
    'CREATE TABLE typed (id INT PRIMARY KEY, flag BOOLEAN, small TINYINT, doc JSON, at TIMESTAMP(6) NULL, local DATETIME, day DATE, big BIGINT UNSIGNED, blob_col BLOB, fl FLOAT)',
    "INSERT INTO typed VALUES (1, TRUE, 7, '{\"k\": [1, 2]}', '2024-05-06 07:08:09.123456', '2024-05-06 07:08:09', '2024-05-06', 18446744073709551615, X'ff00', 0.1)",
  ],
  tests: (served) => {
    test("MySQL's column types: TINYINT(1) boolean, BIGINT UNSIGNED exact, JSON parsed, TIMESTAMP in UTC, DATETIME local, BLOB base64", async () => {
      const c = await served().app.inject({ method: 'GET', url: '/columns' });
      assert.equal(c.statusCode, 200, c.body);
      assert.match(c.body, /"big":18446744073709551615[,}]/);
      assert.deepEqual(
        { ...(c.json() as Record<string, unknown>), big: undefined },
        {
          flag: true,
          small: 7,
          doc: { k: [1, 2] },
          at: '2024-05-06T07:08:09.123Z',
          local: '2024-05-06T07:08:09',
          day: '2024-05-06',
          big: undefined,
          blob_col: '/wA=',
          fl: 0.1,
        },
      );
    });
  },
});
catchSuite(MARIADB);
