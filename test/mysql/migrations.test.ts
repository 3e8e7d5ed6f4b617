/**
 * `migrations = "<dir>"` on MariaDB: the shared suite of test/sql-suite (two processes meet under
 * GET_LOCK). Also the connection's life: a URL with a wrong password fails at once (not retried), a
 * closed port after the bounded retry.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectorOpenError, createConnectors } from '../../src/connectors/index.js';
import { closedPort, FAST_RETRY, modelOf } from '../connectors/helpers.js';
import { migrationSuite } from '../sql-suite/migrations.js';
import { MARIADB, mysqlConnection } from './engine.js';
import { dropDatabases, MYSQL_URL, NO_MYSQL } from './helpers.js';

after(dropDatabases);

migrationSuite(MARIADB);

describe('the connection to MariaDB', { skip: NO_MYSQL }, () => {
  test('a wrong password fails the boot at once, a closed port after the bounded retry; neither shows the password', async () => {
    const wrong = new URL(MYSQL_URL!);
    wrong.username = 'nobody';
    wrong.password = 'sekret-pass';
    const refused = createConnectors(modelOf(mysqlConnection(wrong.toString())));
    await assert.rejects(refused.openAll({ retry: FAST_RETRY }), (error: unknown) => {
      assert.ok(error instanceof ConnectorOpenError);
      assert.equal(error.attempts, 1, error.message);
      assert.doesNotMatch(error.message, /sekret-pass/);
      assert.match(error.message, /nobody:\*\*\*@/);
      return true;
    });
    const closed = createConnectors(modelOf(mysqlConnection(`mysql://root:sekret-pass@127.0.0.1:${await closedPort()}/x`)));
    await assert.rejects(closed.openAll({ retry: FAST_RETRY }), (error: unknown) => {
      assert.ok(error instanceof ConnectorOpenError);
      assert.equal(error.attempts, 3, error.message);
      assert.match(error.message, /ECONNREFUSED/);
      assert.doesNotMatch(error.message, /sekret-pass/);
      return true;
    });
  });
});
