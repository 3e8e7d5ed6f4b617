/**
 * The transaction container and parallel branches on MariaDB: inner steps in order on one
 * connection, outputs readable after it, rollback before any answer (a failure, a transaction-level
 * catch by the portable SQLSTATE, a client gone mid-transaction: its statement killed), parallel
 * branches on separate connections, a failing branch killing its sibling's statement, and the pool
 * whole afterwards.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { adminQuery, dropDatabases, freshDatabase, marker, NO_MYSQL, poolWhole, runningStatements, serve } from './helpers.js';

after(dropDatabases);

const SCHEMA = `
CREATE TABLE users (id INT AUTO_INCREMENT PRIMARY KEY, email VARCHAR(100) UNIQUE NOT NULL) ENGINE=InnoDB;
CREATE TABLE workspaces (id INT AUTO_INCREMENT PRIMARY KEY, owner_id INT NOT NULL, name VARCHAR(100) NOT NULL UNIQUE, CONSTRAINT named CHECK (name <> ''), FOREIGN KEY (owner_id) REFERENCES users (id)) ENGINE=InnoDB;
`;

const BODY = `
  request {
    body {
      field "email" {
        type     = string
        required = true
      }
      field "workspace" {
        type     = string
        required = true
      }
    }
  }
`;

const MANIFEST = (mark: string): string => `
connection "mysql" "db" {
  url = "{{DB}}"
}

endpoint "POST /onboard" {
  ${BODY}
  pipeline {
    transaction "onboard" {
      connection = connection.mysql.db

      sql "user" {
        query = "INSERT INTO users (email) VALUES (@email) RETURNING id, email, CONNECTION_ID() AS conn"
        args = {
          email = ctx.request.body.email
        }
      }

      sql "workspace" {
        query = "INSERT INTO workspaces (owner_id, name) VALUES (@owner, @name) RETURNING id, name, CONNECTION_ID() AS conn"
        args = {
          owner = steps.user.row.id
          name  = ctx.request.body.workspace
        }
      }

      sql "seen" {
        query = "SELECT COUNT(*) AS n, CONNECTION_ID() AS conn FROM workspaces WHERE owner_id = @owner"
        args = {
          owner = steps.user.row.id
        }
      }

      catch "23505" {
        status = 409
        body   = problem(409, "Taken", "\${ctx.request.body.workspace} is taken")
      }
      catch "23514" {
        status = 422
        body   = problem(422, "Unnamed")
      }
    }
    respond {
      status = 201
      body = {
        user = steps.user.row.id
        workspace = steps.workspace.row.name
        seen = steps.seen.row.n
        connections = [steps.user.row.conn, steps.workspace.row.conn, steps.seen.row.conn]
      }
    }
  }
}

endpoint "POST /slow" {
  ${BODY}
  pipeline {
    transaction "slow" {
      connection = connection.mysql.db

      sql "user" {
        query = "INSERT INTO users (email) VALUES (@email)"
        args = {
          email = ctx.request.body.email
        }
      }

      sql "wait" {
        query = "SELECT SLEEP(30) AS ${mark}"
      }
    }
    respond {
      status = 201
      body   = "never"
    }
  }
}

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

describe('transaction and parallel on MariaDB', { skip: NO_MYSQL }, () => {
  test('inner steps run in order on one connection, in one transaction; outputs are steps.<inner> after it', async () => {
    const s = await serve(MANIFEST(marker()), await freshDatabase());
    try {
      for (const statement of SCHEMA.split(';')
        .map((t) => t.trim())
        .filter(Boolean))
        await s.db.query(statement);
      const r = await s.app.inject({ method: 'POST', url: '/onboard', payload: { email: 'a@example.com', workspace: 'a' } });
      assert.equal(r.statusCode, 201, r.body);
      const body = r.json();
      assert.equal(body.workspace, 'a');
      assert.equal(body.seen, 1, "the third step saw the second one's row");
      assert.equal(new Set(body.connections).size, 1, 'all three on one connection');
      await poolWhole(s);
    } finally {
      await s.close();
    }
  });

  test('a failing step rolls back the steps before it; the catch by portable SQLSTATE (23505, 23514) answers after the rollback', async () => {
    const db = await freshDatabase();
    const s = await serve(MANIFEST(marker()), db);
    try {
      for (const statement of SCHEMA.split(';')
        .map((t) => t.trim())
        .filter(Boolean))
        await s.db.query(statement);
      assert.equal((await s.app.inject({ method: 'POST', url: '/onboard', payload: { email: 'a@example.com', workspace: 'w' } })).statusCode, 201);
      const taken = await s.app.inject({ method: 'POST', url: '/onboard', payload: { email: 'b@example.com', workspace: 'w' } });
      assert.equal(taken.statusCode, 409, taken.body);
      assert.equal(taken.json().detail, 'w is taken');
      const unnamed = await s.app.inject({ method: 'POST', url: '/onboard', payload: { email: 'c@example.com', workspace: '' } });
      assert.equal(unnamed.statusCode, 422, unnamed.body);
      assert.deepEqual(
        (await s.db.query('SELECT email FROM users ORDER BY id')).rows,
        [{ email: 'a@example.com' }],
        "b's and c's users were rolled back with their workspaces",
      );
      await poolWhole(s);
      const idleInTransaction = await adminQuery<unknown[]>(
        db,
        'SELECT trx_id FROM information_schema.innodb_trx WHERE trx_mysql_thread_id <> CONNECTION_ID()',
      );
      assert.deepEqual(idleInTransaction, [], 'no transaction left open on a pooled connection');
    } finally {
      await s.close();
    }
  });

  test('a client that goes away mid-transaction (the request times out): 504, the statement killed, no row, the pool whole', async () => {
    const mark = marker();
    const db = await freshDatabase();
    const s = await serve(MANIFEST(mark), db, { requestTimeoutMs: 200 });
    try {
      for (const statement of SCHEMA.split(';')
        .map((t) => t.trim())
        .filter(Boolean))
        await s.db.query(statement);
      const r = await s.app.inject({ method: 'POST', url: '/slow', payload: { email: 'e@example.com', workspace: 'x' } });
      assert.equal(r.statusCode, 504, r.body);
      assert.deepEqual(await runningStatements(db, mark), [], 'the SLEEP was killed, not left to run 30 s');
      await poolWhole(s);
      assert.deepEqual((await s.db.query('SELECT email FROM users')).rows, []);
      await s.db.query("INSERT INTO users (email) VALUES ('e@example.com')");
    } finally {
      await s.close();
    }
  });

  test('parallel branches run at the same time on separate connections; a failing branch kills its sibling', async () => {
    const mark = marker();
    const db = await freshDatabase();
    const s = await serve(MANIFEST(mark), db);
    try {
      for (const statement of SCHEMA.split(';')
        .map((t) => t.trim())
        .filter(Boolean))
        await s.db.query(statement);
      const both = await s.app.inject({ method: 'GET', url: '/both' });
      assert.equal(both.statusCode, 200, both.body);
      assert.notEqual(both.json().a, both.json().b, 'two connections');
      const failed = await s.app.inject({ method: 'GET', url: '/one-fails' });
      assert.equal(failed.statusCode, 500, failed.body);
      assert.doesNotMatch(failed.body, /no_such_column|Unknown column|1054/);
      assert.deepEqual(await runningStatements(db, `${mark}_sibling`), [], "the sibling's SLEEP(30) was killed");
      await poolWhole(s);
    } finally {
      await s.close();
    }
  });
});
