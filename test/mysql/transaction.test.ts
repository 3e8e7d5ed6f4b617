/**
 * The transaction container on MariaDB (the shared suite of test/sql-suite: its statement killed
 * when the client goes away mid-transaction, even one the server never ends for a closed socket),
 * and parallel branches on separate connections, a failing branch killing its sibling's statement,
 * the pool whole afterwards.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import mysql from 'mysql2';
import { poolWhole, serveOn } from '../sql-suite/engine.js';
import { transactionSuite } from '../sql-suite/transaction.js';
import { MARIADB } from './engine.js';
import { dropDatabases, freshDatabase, marker, MYSQL_URL, runningStatements } from './helpers.js';

after(dropDatabases);

const mark = marker();

const PARALLEL = `
endpoint "GET /both" {
  pipeline {
    parallel "both" {
      sql "a" {
        connection = connection.mysql.db
        query      = "SELECT SLEEP(0.3) AS slept, CONNECTION_ID() AS conn"
      }
      sql "b" {
        connection = connection.mysql.db
        query      = "SELECT SLEEP(0.3) AS slept, CONNECTION_ID() AS conn"
      }
    }
    respond {
      body = { a = steps.a.row.conn, b = steps.b.row.conn }
    }
  }
}

endpoint "GET /one-fails" {
  pipeline {
    parallel "both" {
      sql "long" {
        connection = connection.mysql.db
        query      = "SELECT SLEEP(30) AS ${mark}_sibling"
      }
      sql "bad" {
        connection = connection.mysql.db
        query      = "SELECT SLEEP(0.2) + no_such_column FROM users"
      }
    }
    respond {
      body = "never"
    }
  }
}
`;

const LOCKED = `
connection "mysql" "db" {
  url = "{{DB}}"
}

endpoint "POST /locked" {
  pipeline {
    transaction "locked" {
      connection = connection.mysql.db

      sql "wait" {
        query = "SELECT id AS ${mark}_locked FROM held WHERE id = 1 FOR UPDATE"
      }
    }
    respond {
      status = 201
    }
  }
}
`;

transactionSuite(MARIADB, {
  endpoints: PARALLEL,
  tests: (served) => {
    test('parallel branches run at the same time on separate connections; a failing branch kills its sibling', async () => {
      const s = served();
      const both = await s.app.inject({ method: 'GET', url: '/both' });
      assert.equal(both.statusCode, 200, both.body);
      assert.notEqual(both.json().a, both.json().b, 'two connections');
      const failed = await s.app.inject({ method: 'GET', url: '/one-fails' });
      assert.equal(failed.statusCode, 500, failed.body);
      assert.doesNotMatch(failed.body, /no_such_column|Unknown column|1054/);
      assert.deepEqual(await runningStatements(MYSQL_URL!, `${mark}_sibling`), [], "the sibling's SLEEP(30) was killed");
      await poolWhole(s);
    });

    // A row lock wait ends at innodb_lock_wait_timeout (50 s), whatever becomes of the client's
    // socket: only KILL QUERY stops it. The transaction is torn down (its session destroyed) before
    // the statement's own interrupt fires, and the session kills what it still runs.
    test('a request time-out mid-statement kills the statement, even a lock wait the server would sit in for 50 s', async () => {
      const database = await freshDatabase();
      const holder = mysql.createConnection({ uri: database }).promise();
      const s = await serveOn(MARIADB, LOCKED, database, { requestTimeoutMs: 150 });
      try {
        await s.db.query('CREATE TABLE held (id INT PRIMARY KEY) ENGINE=InnoDB');
        await s.db.query('INSERT INTO held VALUES (1)');
        await holder.query('BEGIN');
        await holder.query('SELECT id FROM held WHERE id = 1 FOR UPDATE');
        const r = await s.app.inject({ method: 'POST', url: '/locked' });
        assert.equal(r.statusCode, 504, r.body);
        assert.deepEqual(await runningStatements(MYSQL_URL!, `${mark}_locked`), [], 'the lock wait was killed');
        await poolWhole(s);
      } finally {
        await holder.query('ROLLBACK').catch(() => {});
        holder.destroy();
        await s.close();
      }
    });
  },
});
