/**
 * The transaction container on every postgres target: inner steps in order on one client, outputs
 * readable after it, rollback before any answer (a failure, a transaction-level catch, an inner
 * step's catch, a client gone mid-transaction, a COMMIT that fails), and the pool whole afterwards.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { activeQueries, closeTargets, poolWhole, rowsOf, serve, TARGETS } from './helpers.js';

after(closeTargets);

const SCHEMA = `
CREATE TABLE users (id serial PRIMARY KEY, email text UNIQUE NOT NULL);
CREATE TABLE workspaces (id serial PRIMARY KEY, owner_id int NOT NULL REFERENCES users, name text NOT NULL UNIQUE CHECK (name <> ''));
CREATE TABLE codes (code text, CONSTRAINT codes_code_key UNIQUE (code) DEFERRABLE INITIALLY DEFERRED);
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

const MANIFEST = `
connection "postgres" "db" {
  url = "{{DB}}"
}

endpoint "POST /onboard" {
  ${BODY}
  pipeline {
    transaction "onboard" {
      connection = connection.postgres.db

      sql "user" {
        query = "INSERT INTO users (email) VALUES (@email) RETURNING id, email, txid_current() AS tx, pg_backend_pid() AS pid"
        args = {
          email = ctx.request.body.email
        }
      }

      sql "workspace" {
        query = "INSERT INTO workspaces (owner_id, name) VALUES (@owner, @name) RETURNING id, name, txid_current() AS tx, pg_backend_pid() AS pid"
        args = {
          owner = steps.user.row.id
          name  = ctx.request.body.workspace
        }
      }

      # Reads nothing of "workspace": that it sees its row says it ran after it, in the same transaction.
      sql "seen" {
        query = "SELECT (SELECT count(*) FROM workspaces WHERE owner_id = @owner)::int AS workspaces, txid_current() AS tx, pg_backend_pid() AS pid"
        args = {
          owner = steps.user.row.id
        }
      }

      catch "23505" {
        status = 409
        body   = problem(409, "Workspace taken", "\${ctx.request.body.workspace} is taken")
      }
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

endpoint "POST /onboard-inner" {
  ${BODY}
  pipeline {
    transaction "inner" {
      connection = connection.postgres.db

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

endpoint "POST /codes" {
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
      connection = connection.postgres.db

      sql "first" {
        query = "INSERT INTO codes (code) VALUES (@code)"
        args = {
          code = ctx.request.body.code
        }
      }

      # The unique constraint is deferred: this insert succeeds and COMMIT fails.
      sql "second" {
        query = "INSERT INTO codes (code) VALUES (@code)"
        args = {
          code = ctx.request.body.code
        }
      }
    }

    respond {
      status = 201
      body   = { inserted = steps.first.rows_affected + steps.second.rows_affected }
    }
  }
}

endpoint "POST /codes-caught" {
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
      connection = connection.postgres.db

      sql "first" {
        query = "INSERT INTO codes (code) VALUES (@code)"
        args = {
          code = ctx.request.body.code
        }
      }

      sql "second" {
        query = "INSERT INTO codes (code) VALUES (@code)"
        args = {
          code = ctx.request.body.code
        }
      }

      catch "23505" {
        status = 409
        body   = problem(409, "Duplicate code", "\${ctx.request.body.code} is used twice")
      }
    }

    respond {
      status = 201
      body   = { inserted = steps.first.rows_affected + steps.second.rows_affected }
    }
  }
}

endpoint "POST /slow" {
  ${BODY}
  pipeline {
    transaction "slow" {
      connection = connection.postgres.db

      sql "user" {
        query = "INSERT INTO users (email) VALUES (@email) RETURNING id"
        args = {
          email = ctx.request.body.email
        }
      }

      sql "sleep" {
        query = "SELECT pg_sleep(@seconds::float8) AS slept_in_transaction"
        args = {
          seconds = ctx.request.body.workspace
        }
      }
    }

    respond {
      status = 201
      body   = steps.user.row
    }
  }
}
`;

/** A failure's problem: the catalogue's 500 naming the step, nothing of the SQL or the server's words. */
function assertOpaque500(r: { statusCode: number; body: string; headers: Record<string, unknown>; json(): unknown }, step: string, path: string): void {
  assert.equal(r.statusCode, 500, r.body);
  assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
  assert.deepEqual(r.json(), { type: 'urn:svc:error:internal', title: 'Internal Server Error', status: 500, step, instance: path });
}

for (const target of TARGETS) {
  describe(`transactions on ${target.name}`, { skip: target.skip }, () => {
    test('inner steps run in order on one client, in one transaction; their outputs are steps.<inner> after it', async () => {
      const s = await serve(MANIFEST, await target.fresh());
      try {
        await s.db.query(SCHEMA);
        const r = await s.app.inject({ method: 'POST', url: '/onboard', payload: { email: 'ada@example.com', workspace: 'engines' } });
        assert.equal(r.statusCode, 201, r.body);
        const { user, workspace, seen } = r.json() as Record<string, { tx: number; pid: number; [k: string]: unknown }>;
        assert.equal(user!.email, 'ada@example.com');
        assert.equal(workspace!.name, 'engines');
        assert.equal(seen!.workspaces, 1, 'the third step saw the second one row: it ran after it');
        assert.equal(workspace!.tx, user!.tx, 'one transaction');
        assert.equal(seen!.tx, user!.tx, 'one transaction');
        assert.equal(workspace!.pid, user!.pid, 'one client');
        assert.equal(seen!.pid, user!.pid, 'one client');
        assert.deepEqual(await rowsOf(s, 'SELECT u.email, w.name FROM users u JOIN workspaces w ON w.owner_id = u.id'), [
          { email: 'ada@example.com', name: 'engines' },
        ]);
        await poolWhole(s);
      } finally {
        await s.close();
      }
    });

    test('a second insert that fails leaves no row of the first, and the 500 problem leaks no SQL', async () => {
      const s = await serve(MANIFEST, await target.fresh());
      try {
        await s.db.query(SCHEMA);
        // An empty name breaks the CHECK (23514), which nothing catches.
        const r = await s.app.inject({ method: 'POST', url: '/onboard', payload: { email: 'bob@example.com', workspace: '' } });
        assertOpaque500(r, 'workspace', '/onboard');
        assert.deepEqual(await rowsOf(s, 'SELECT email FROM users'), []);
        // The log line has the server's message.
        const line = s.log.requests().find((l) => l.status === 500);
        assert.match(JSON.stringify(line?.err), /workspaces_name_check/);
        await poolWhole(s);
        // The client went back usable: the next transaction commits.
        const ok = await s.app.inject({ method: 'POST', url: '/onboard', payload: { email: 'bob@example.com', workspace: 'b' } });
        assert.equal(ok.statusCode, 201, ok.body);
      } finally {
        await s.close();
      }
    });

    test('a transaction-level catch "23505" answers as declared after the rollback', async () => {
      const s = await serve(MANIFEST, await target.fresh());
      try {
        await s.db.query(SCHEMA);
        const first = await s.app.inject({ method: 'POST', url: '/onboard', payload: { email: 'ada@example.com', workspace: 'engines' } });
        assert.equal(first.statusCode, 201, first.body);
        // A new user (the first insert succeeds), a taken workspace name (the second fails).
        const r = await s.app.inject({ method: 'POST', url: '/onboard', payload: { email: 'carl@example.com', workspace: 'engines' } });
        assert.equal(r.statusCode, 409, r.body);
        assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
        assert.deepEqual(r.json(), { type: 'urn:svc:error:conflict', title: 'Workspace taken', status: 409, detail: 'engines is taken', instance: '/onboard' });
        // Rolled back and released before the answer: the client is idle now, not in a transaction.
        const stats = s.db.stats();
        assert.equal(stats.idle, stats.total, JSON.stringify(stats));
        assert.deepEqual(await rowsOf(s, 'SELECT email FROM users ORDER BY id'), [{ email: 'ada@example.com' }]);
        if (target.name === 'postgres') {
          assert.deepEqual(await rowsOf(s, "SELECT state FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'"), []);
        }
      } finally {
        await s.close();
      }
    });

    test("an inner step's own catch answers as declared, and the transaction rolls back too", async () => {
      const s = await serve(MANIFEST, await target.fresh());
      try {
        await s.db.query(SCHEMA);
        assert.equal((await s.app.inject({ method: 'POST', url: '/onboard-inner', payload: { email: 'a@example.com', workspace: 'w' } })).statusCode, 201);
        const r = await s.app.inject({ method: 'POST', url: '/onboard-inner', payload: { email: 'b@example.com', workspace: 'w' } });
        assert.equal(r.statusCode, 409, r.body);
        const body = r.json() as { caught: string; user: number };
        assert.equal(body.caught, 'inner');
        // The body read the first insert's row; that row is gone.
        assert.deepEqual(await rowsOf(s, `SELECT email FROM users WHERE id = ${Number(body.user)}`), []);
        assert.deepEqual(await rowsOf(s, 'SELECT email FROM users ORDER BY id'), [{ email: 'a@example.com' }]);
        const stats = s.db.stats();
        assert.equal(stats.idle, stats.total, JSON.stringify(stats));
      } finally {
        await s.close();
      }
    });

    test('a COMMIT that fails (a deferred unique constraint) is a 500, or the transaction catch; the client is not reused broken', async () => {
      const s = await serve(MANIFEST, await target.fresh());
      try {
        await s.db.query(SCHEMA);
        const failed = await s.app.inject({ method: 'POST', url: '/codes', payload: { code: 'x' } });
        assertOpaque500(failed, 'codes', '/codes');
        const caught = await s.app.inject({ method: 'POST', url: '/codes-caught', payload: { code: 'y' } });
        assert.equal(caught.statusCode, 409, caught.body);
        assert.equal(caught.json().detail, 'y is used twice');
        assert.deepEqual(await rowsOf(s, 'SELECT code FROM codes'), []);
        await poolWhole(s);
        // Whatever client serves next is clean: outside any transaction, and its work commits.
        const stillFine = await s.app.inject({ method: 'POST', url: '/onboard', payload: { email: 'd@example.com', workspace: 'd' } });
        assert.equal(stillFine.statusCode, 201, stillFine.body);
        assert.deepEqual(await rowsOf(s, 'SELECT email FROM users'), [{ email: 'd@example.com' }]);
        if (target.name === 'postgres') {
          assert.deepEqual(await rowsOf(s, "SELECT state FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'"), []);
        }
      } finally {
        await s.close();
      }
    });

    test('a client that goes away mid-transaction (the request times out) leaves no row and the pool whole', async () => {
      // PGlite runs a query on this thread: the time-out fires once its pg_sleep has returned, before
      // the answer is read, i.e. still mid-transaction. A server's pg_sleep is cancelled.
      const seconds = target.name === 'postgres' ? '30' : '0.4';
      const s = await serve(MANIFEST, await target.fresh(), { requestTimeoutMs: 150 });
      try {
        await s.db.query(SCHEMA);
        const r = await s.app.inject({ method: 'POST', url: '/slow', payload: { email: 'e@example.com', workspace: seconds } });
        assert.equal(r.statusCode, 504, r.body);
        if (target.name === 'postgres') {
          // The backend's query was cancelled (and its client destroyed), not left to run its 30 s.
          assert.deepEqual(await activeQueries(s, 'slept_in_transaction'), []);
        }
        await poolWhole(s);
        assert.deepEqual(await rowsOf(s, 'SELECT email FROM users'), []);
        // The same email again commits: nothing holds its key.
        await s.db.query("INSERT INTO users (email) VALUES ('e@example.com')");
      } finally {
        await s.close();
      }
    });
  });
}
