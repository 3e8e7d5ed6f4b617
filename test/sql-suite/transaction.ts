/**
 * The transaction container on one engine: inner steps in order on one connection, in one
 * transaction, their outputs readable after it; rolled back before any answer (a failure, a
 * transaction-level catch, an inner step's catch, a COMMIT that fails, a client gone
 * mid-transaction: its statement stopped), and the pool whole afterwards.
 */
import { before, after, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { assertProblem, exec, poolWhole, rowsOf, serveOn, type Engine, type ServedSql } from './engine.js';
import type { SuiteExtras } from './sql.js';

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

/** POST <path>: a user and their workspace in one transaction, a third step seeing the second's row. */
function onboard(engine: Engine, path: string, catches: string): string {
  const session = `${engine.sql.sessionId ?? 'NULL'} AS conn, ${engine.sql.transactionId ?? 'NULL'} AS tx`;
  return `
endpoint "POST ${path}" {
  ${BODY}
  pipeline {
    transaction "onboard" {
      connection = connection.{{KIND}}.db

      sql "user" {
        query = "INSERT INTO users (email) VALUES (@email) RETURNING id, email, ${session}"
        args = {
          email = ctx.request.body.email
        }
      }

      sql "workspace" {
        query = "INSERT INTO workspaces (owner_id, name) VALUES (@owner, @name) RETURNING id, name, ${session}"
        args = {
          owner = steps.user.row.id
          name  = ctx.request.body.workspace
        }
      }

      # Reads nothing of "workspace": that it sees its row says it ran after it, in the same transaction.
      sql "seen" {
        query = "SELECT COUNT(*) AS workspaces, ${session} FROM workspaces WHERE owner_id = @owner"
        args = {
          owner = steps.user.row.id
        }
      }
${catches}
    }

    respond {
      status = 201
      body = {
        user      = steps.user.row
        workspace = steps.workspace.row
        seen      = steps.seen.row
      }
    }
  }
}
`;
}

function manifest(engine: Engine, mark: string): string {
  const sleep = engine.sql.sleep;
  const deferred = engine.sql.deferred;
  const codes = (path: string, catches: string): string => `
endpoint "POST ${path}" {
  request {
    body {
      field "code" {
        type     = string
        required = true
      }
    }
  }
  pipeline {
    transaction "codes" {
      connection = connection.{{KIND}}.db

      sql "first" {
        query = "INSERT INTO codes (code) VALUES (@code)"
        args = {
          code = ctx.request.body.code
        }
      }

      # The constraint is deferred: this insert succeeds and COMMIT fails.
      sql "second" {
        query = "INSERT INTO codes (code) VALUES (@code)"
        args = {
          code = ctx.request.body.code
        }
      }
${catches}
    }

    respond {
      status = 201
      body   = { inserted = steps.first.rows_affected + steps.second.rows_affected }
    }
  }
}
`;
  return `
connection "{{KIND}}" "db" {
  url = "{{DB}}"
}
${onboard(
  engine,
  '/onboard',
  `
      catch "23505" {
        status = 409
        body   = problem(409, "Workspace taken", "\${ctx.request.body.workspace} is taken")
      }`,
)}
${onboard(
  engine,
  '/onboard-checked',
  `
      catch "23505" {
        status = 409
        body   = problem(409, "Workspace taken", "\${ctx.request.body.workspace} is taken")
      }
      catch "23514" {
        status = 422
        body   = problem(422, "Unnamed")
      }`,
)}
endpoint "POST /onboard-inner" {
  ${BODY}
  pipeline {
    transaction "inner" {
      connection = connection.{{KIND}}.db

      sql "user" {
        query = "INSERT INTO users (email) VALUES (@email) RETURNING id"
        args = {
          email = ctx.request.body.email
        }
      }

      sql "workspace" {
        query = "INSERT INTO workspaces (owner_id, name) VALUES (@owner, @name) RETURNING id"
        args = {
          owner = steps.user.row.id
          name  = ctx.request.body.workspace
        }
        catch "23505" {
          status = 409
          body = {
            caught = "inner"
            user   = steps.user.row.id
          }
        }
      }
    }

    respond {
      status = 201
      body   = steps.workspace.row
    }
  }
}
${
  deferred === undefined
    ? ''
    : codes('/codes', '') +
      codes(
        '/codes-caught',
        `
      catch "${deferred.code}" {
        status = 409
        body   = problem(409, "Duplicate code", "\${ctx.request.body.code} is used twice")
      }`,
      )
}${
  sleep === undefined
    ? ''
    : `
endpoint "POST /slow" {
  ${BODY}
  pipeline {
    transaction "slow" {
      connection = connection.{{KIND}}.db

      sql "user" {
        query = "INSERT INTO users (email) VALUES (@email) RETURNING id"
        args = {
          email = ctx.request.body.email
        }
      }

      sql "sleep" {
        query = ${JSON.stringify(sleep(String(engine.sleeps.long), mark))}
      }
    }

    respond {
      status = 201
      body   = steps.user.row
    }
  }
}
`
}`;
}

/** A failure's problem: the catalogue's 500 naming the step, nothing of the SQL or the server's words. */
function assertOpaque500(r: { statusCode: number; body: string; headers: Record<string, unknown>; json(): unknown }, step: string, path: string): void {
  assert.equal(r.statusCode, 500, r.body);
  assertProblem(r);
  assert.deepEqual(r.json(), { type: 'urn:svc:error:internal', title: 'Internal Server Error', status: 500, step, instance: path });
}

export function transactionSuite(engine: Engine, extras: SuiteExtras = {}): void {
  describe(`transactions on ${engine.name}`, { skip: engine.skip }, () => {
    let s: ServedSql;
    let database: string;
    // The running statements of the server are probed by this name (other test files share it).
    const mark = `slept_in_transaction_${randomBytes(4).toString('hex')}`;
    const schema = [
      `CREATE TABLE users (${engine.sql.autoId}, email VARCHAR(100) UNIQUE NOT NULL)`,
      `CREATE TABLE workspaces (${engine.sql.autoId}, owner_id INTEGER NOT NULL, name VARCHAR(100) NOT NULL UNIQUE, CONSTRAINT workspace_named CHECK (name <> ''), FOREIGN KEY (owner_id) REFERENCES users (id))`,
      ...(engine.sql.deferred?.tables ?? []),
    ];

    before(async () => {
      database = await engine.fresh();
      s = await serveOn(engine, manifest(engine, mark) + (extras.endpoints ?? ''), database);
      await exec(s, [...schema, ...(extras.setup ?? [])]);
    });
    after(() => s?.close());
    // Each test starts from empty tables (ids go on counting).
    beforeEach(() => exec(s, ['DELETE FROM workspaces', 'DELETE FROM users', ...(engine.sql.deferred === undefined ? [] : ['DELETE FROM codes'])]));

    const post = (url: string, payload: Record<string, unknown>) => s.app.inject({ method: 'POST', url, payload });

    /** No transaction left open on a pooled connection, where the engine shows them. */
    async function noneLeftOpen(): Promise<void> {
      if (engine.openTransactions !== undefined) assert.deepEqual(await engine.openTransactions(s), [], 'no transaction left open');
    }

    test('inner steps run in order on one connection, in one transaction; their outputs are steps.<inner> after it', async () => {
      const r = await post('/onboard', { email: 'ada@example.com', workspace: 'engines' });
      assert.equal(r.statusCode, 201, r.body);
      const { user, workspace, seen } = r.json() as Record<string, { tx: unknown; conn: unknown; [k: string]: unknown }>;
      assert.equal(user!.email, 'ada@example.com');
      assert.equal(workspace!.name, 'engines');
      assert.equal(seen!.workspaces, 1, 'the third step saw the second one row: it ran after it');
      assert.deepEqual([workspace!.tx, seen!.tx], [user!.tx, user!.tx], 'one transaction');
      assert.deepEqual([workspace!.conn, seen!.conn], [user!.conn, user!.conn], 'one connection');
      assert.deepEqual(await rowsOf(s, 'SELECT u.email, w.name FROM users u JOIN workspaces w ON w.owner_id = u.id'), [
        { email: 'ada@example.com', name: 'engines' },
      ]);
      await poolWhole(s);
    });

    test('a second insert that fails leaves no row of the first, and the 500 problem leaks no SQL', async () => {
      // An empty name breaks the CHECK (23514), which nothing catches.
      const r = await post('/onboard', { email: 'bob@example.com', workspace: '' });
      assertOpaque500(r, 'workspace', '/onboard');
      assert.deepEqual(await rowsOf(s, 'SELECT email FROM users'), []);
      // The log line has the engine's message.
      const line = s.log.requests().find((l) => l.status === 500 && l.url === '/onboard');
      assert.match(JSON.stringify(line?.err), /workspace_named/);
      await poolWhole(s);
      // The connection went back usable: the next transaction commits.
      const ok = await post('/onboard', { email: 'bob@example.com', workspace: 'b' });
      assert.equal(ok.statusCode, 201, ok.body);
    });

    test('a transaction-level catch by the portable SQLSTATE (23505, 23514) answers as declared after the rollback', async () => {
      const first = await post('/onboard-checked', { email: 'ada@example.com', workspace: 'engines' });
      assert.equal(first.statusCode, 201, first.body);
      // A new user (the first insert succeeds), a taken workspace name (the second fails).
      const r = await post('/onboard', { email: 'carl@example.com', workspace: 'engines' });
      assert.equal(r.statusCode, 409, r.body);
      assertProblem(r);
      assert.deepEqual(r.json(), { type: 'urn:svc:error:conflict', title: 'Workspace taken', status: 409, detail: 'engines is taken', instance: '/onboard' });
      // Rolled back and released before the answer: the connection is idle now, not in a transaction.
      const stats = s.db.stats();
      assert.equal(stats.idle, stats.total, JSON.stringify(stats));
      const unnamed = await post('/onboard-checked', { email: 'dora@example.com', workspace: '' });
      assert.equal(unnamed.statusCode, 422, unnamed.body);
      assert.equal(unnamed.json().title, 'Unnamed');
      assert.deepEqual(await rowsOf(s, 'SELECT email FROM users ORDER BY id'), [{ email: 'ada@example.com' }], "carl's and dora's users were rolled back");
      await poolWhole(s);
      await noneLeftOpen();
    });

    test("an inner step's own catch answers as declared, and the transaction rolls back too", async () => {
      assert.equal((await post('/onboard-inner', { email: 'a@example.com', workspace: 'w' })).statusCode, 201);
      const r = await post('/onboard-inner', { email: 'b@example.com', workspace: 'w' });
      assert.equal(r.statusCode, 409, r.body);
      const body = r.json() as { caught: string; user: number };
      assert.equal(body.caught, 'inner');
      // The body read the first insert's row; that row is gone.
      assert.deepEqual(await rowsOf(s, `SELECT email FROM users WHERE id = ${Number(body.user)}`), []);
      assert.deepEqual(await rowsOf(s, 'SELECT email FROM users ORDER BY id'), [{ email: 'a@example.com' }]);
      const stats = s.db.stats();
      assert.equal(stats.idle, stats.total, JSON.stringify(stats));
    });

    test('a COMMIT that fails (a deferred constraint) is a 500, or the transaction catch; the connection is not reused broken', {
      skip: engine.sql.deferred === undefined && `${engine.name} has no deferred constraint: a COMMIT cannot fail on one`,
    }, async () => {
      const failed = await post('/codes', { code: 'x' });
      assertOpaque500(failed, 'codes', '/codes');
      const caught = await post('/codes-caught', { code: 'y' });
      assert.equal(caught.statusCode, 409, caught.body);
      assert.equal(caught.json().detail, 'y is used twice');
      assert.deepEqual(await rowsOf(s, 'SELECT code FROM codes'), []);
      await poolWhole(s);
      // Whatever connection serves next is clean: outside any transaction, and its work commits.
      const stillFine = await post('/onboard', { email: 'd@example.com', workspace: 'd' });
      assert.equal(stillFine.statusCode, 201, stillFine.body);
      assert.deepEqual(await rowsOf(s, 'SELECT email FROM users'), [{ email: 'd@example.com' }]);
      await noneLeftOpen();
    });

    test('a client that goes away mid-transaction (the request times out): 504, the statement stopped, no row, the pool whole', {
      skip: engine.sql.sleep === undefined && `${engine.name} has no sleep: no statement lasts past a time-out`,
    }, async () => {
      // A service of its own for the request time-out, on a database of its own. Where the engine
      // runs on this thread (PGlite) the time-out fires once the sleep has returned, before its
      // answer is read: still mid-transaction.
      const slow = await serveOn(engine, manifest(engine, mark), await engine.fresh(), { requestTimeoutMs: 150 });
      try {
        await exec(slow, schema);
        const r = await slow.app.inject({ method: 'POST', url: '/slow', payload: { email: 'e@example.com', workspace: 'x' } });
        assert.equal(r.statusCode, 504, r.body);
        if (engine.sleeps.running !== undefined)
          assert.deepEqual(await engine.sleeps.running(slow, mark), [], `the sleep was stopped, not left to run ${engine.sleeps.long} s`);
        await poolWhole(slow);
        assert.deepEqual(await rowsOf(slow, 'SELECT email FROM users'), []);
        // The same email again commits: nothing holds its key.
        await slow.db.query("INSERT INTO users (email) VALUES ('e@example.com')");
      } finally {
        await slow.close();
      }
    });

    extras.tests?.(
      () => s,
      () => database,
    );
  });
}
