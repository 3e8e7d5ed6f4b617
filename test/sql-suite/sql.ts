/**
 * The sql step on one engine, through the HTTP layer as `svc serve` builds it (one served manifest
 * for the suite): `@name` binding (a name used twice binds once), the `row` / `rows` /
 * `rows_affected` outputs, RETURNING, a 404 on a miss, the 409 of `catch "23505"`, SQL injection
 * through every request coordinate inert, the engine's values as JSON, a step time-out (504, the
 * statement stopped where it can be), a failing statement (500, nothing leaked) and a value the
 * column refuses (400).
 */
import { randomBytes } from 'node:crypto';
import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertProblem, exec, poolWhole, serveOn, type Engine, type ServedSql } from './engine.js';

/** More endpoints and tests of the engine's own, served by the suite's service. */
export interface SuiteExtras {
  /** Manifest text appended to the suite's (`{{DB}}` and `{{KIND}}` as there). */
  readonly endpoints?: string;
  /** Statements run once the service is up, after the suite's tables are made. */
  readonly setup?: readonly string[];
  /** Declares tests (node:test) inside the suite's describe; `served()` is its service once up. */
  tests?(served: () => ServedSql, database: () => string): void;
}

function manifest(engine: Engine, mark: string): string {
  const sleep = engine.sql.sleep;
  return `
connection "{{KIND}}" "db" {
  url = "{{DB}}"
}

endpoint "POST /users" {
  request {
    body {
      field "email" {
        type     = string
        required = true
      }
      field "name" {
        type = string
      }
    }
  }
  pipeline {
    sql "insert" {
      query = "INSERT INTO users (email, name) VALUES (@email, @name) RETURNING id, email, name, active"
      args = {
        email = ctx.request.body.email
        name  = ctx.request.body.name
      }
      catch "23505" {
        status = 409
        body   = problem(409, "Email taken", "\${ctx.request.body.email} is already registered")
      }
    }
    respond {
      status = 201
      body   = steps.insert.row
    }
  }
}

endpoint "GET /users/{id}" {
  request {
    path {
      field "id" {
        type = int
      }
    }
  }
  pipeline {
    sql "find" {
      query = "SELECT id, email, name, active, created FROM users WHERE id = @id"
      args = {
        id = ctx.request.path.id
      }
    }
    respond {
      condition = steps.find.row == null
      body      = problem(404, "No such user")
    }
    respond {
      body = steps.find.row
    }
  }
}

endpoint "GET /first/{id}" {
  request {
    path {
      field "id" {
        type = int
      }
    }
  }
  pipeline {
    sql "either" {
      query = "SELECT email FROM users WHERE id = @id OR (@id = 0 AND id = 1)"
      args = {
        id = ctx.request.path.id
      }
    }
    respond {
      body = { emails = [for r in steps.either.rows : r.email] }
    }
  }
}

endpoint "GET /search" {
  request {
    query {
      field "q" {
        type = string
      }
    }
  }
  pipeline {
    sql "search" {
      query = "SELECT email FROM users WHERE email LIKE @q OR name = @q ORDER BY id"
      args = {
        q = ctx.request.query.q
      }
    }
    respond {
      body = { emails = [for r in steps.search.rows : r.email], count = steps.search.rows_affected }
    }
  }
}

endpoint "GET /types" {
  pipeline {
    sql "t" {
      query = ${JSON.stringify(engine.sql.types.query)}
    }
    respond {
      body = steps.t.row
    }
  }
}
${
  sleep === undefined
    ? ''
    : `
endpoint "GET /slow" {
  pipeline {
    sql "sleep" {
      query   = ${JSON.stringify(sleep(String(engine.sleeps.long), mark))}
      timeout = "200ms"
    }
    respond {
      body = "never"
    }
  }
}
`
}
endpoint "GET /broken" {
  pipeline {
    sql "bad" {
      query = "SELECT * FROM no_such_table"
    }
    respond {
      body = "never"
    }
  }
}

endpoint "POST /refused" {
  request {
    body {
      field "v" {
        type     = string
        required = true
      }
    }
  }
  pipeline {
    sql "put" {
      query = "INSERT INTO refused_values (v) VALUES (@v)"
      args  = { v = ctx.request.body.v }
    }
    respond {
      status = 204
    }
  }
}
`;
}

export function sqlSuite(engine: Engine, extras: SuiteExtras = {}): void {
  describe(`sql steps on ${engine.name}`, { skip: engine.skip }, () => {
    let s: ServedSql;
    let database: string;
    // The running statements of the server are probed by this name (other test files share it).
    const mark = `sql_suite_${randomBytes(4).toString('hex')}`;

    before(async () => {
      database = await engine.fresh();
      s = await serveOn(engine, manifest(engine, mark) + (extras.endpoints ?? ''), database);
      await exec(s, [
        `CREATE TABLE users (${engine.sql.autoId}, email VARCHAR(100) UNIQUE NOT NULL, name VARCHAR(20), active BOOLEAN NOT NULL DEFAULT TRUE, ${engine.sql.createdColumn})`,
        engine.sql.refused.table,
        ...(extras.setup ?? []),
      ]);
    });
    after(() => s?.close());

    /** Nothing of where the database is (its name, its file's path) in an answer. */
    function assertNoPlace(body: string): void {
      const place = new URL(database).pathname;
      assert.ok(!body.includes(place), `the answer shows ${place}: ${body}`);
    }

    test('insert with RETURNING, select by parameter (a name used twice binds once), 404 on a miss, 409 from catch "23505"', async () => {
      const created = await s.app.inject({ method: 'POST', url: '/users', payload: { email: 'ada@example.com', name: 'Ada' } });
      assert.equal(created.statusCode, 201, created.body);
      assert.deepEqual(created.json(), { id: 1, email: 'ada@example.com', name: 'Ada', active: true });
      const found = await s.app.inject({ method: 'GET', url: '/users/1' });
      assert.equal(found.statusCode, 200);
      assert.deepEqual(found.json(), { id: 1, email: 'ada@example.com', name: 'Ada', active: true, created: '2024-05-06T07:08:09.000Z' });
      assert.deepEqual((await s.app.inject({ method: 'GET', url: '/first/0' })).json(), { emails: ['ada@example.com'] });
      assert.equal((await s.app.inject({ method: 'GET', url: '/users/2' })).statusCode, 404);
      const taken = await s.app.inject({ method: 'POST', url: '/users', payload: { email: 'ada@example.com' } });
      assert.equal(taken.statusCode, 409);
      assertProblem(taken);
      assert.equal(taken.json().detail, 'ada@example.com is already registered');
      await poolWhole(s);
    });

    test('SQL injection through every request coordinate is inert', async () => {
      const count = async (): Promise<number> => (await s.app.inject({ method: 'GET', url: '/search', query: { q: '%' } })).json().count;
      const before = await count();
      const hostile = ["x'); DROP TABLE users; --", "' OR '1'='1", '@q', '$1', '?', '\\', "'; SELECT pg_sleep(1); --", "'; SELECT SLEEP(1); --"];
      for (const email of hostile) {
        const r = await s.app.inject({ method: 'POST', url: '/users', payload: { email, name: email.slice(0, 20) } });
        assert.equal(r.statusCode, 201, r.body);
        assert.equal(r.json().email, email);
      }
      const search = await s.app.inject({ method: 'GET', url: '/search', query: { q: "' OR '1'='1" } });
      assert.deepEqual(search.json(), { emails: ["' OR '1'='1"], count: 1 });
      assert.equal((await s.app.inject({ method: 'GET', url: '/users/1%20OR%201=1' })).statusCode, 422);
      assert.equal(await count(), before + hostile.length, 'the table is whole');
    });

    test("values are JSON-safe, as the engine's description lists them: integers exact beyond 2^53, decimals as text, bytes as base64", async () => {
      const r = await s.app.inject({ method: 'GET', url: '/types' });
      assert.equal(r.statusCode, 200, r.body);
      assert.match(r.body, engine.sql.types.big);
      assert.deepEqual({ ...(r.json() as Record<string, unknown>), big: undefined }, { ...engine.sql.types.expected, big: undefined });
    });

    test('a step time-out is a 504 problem, and the statement is stopped where it can be', {
      skip: engine.sql.sleep === undefined && `${engine.name} has no sleep`,
    }, async () => {
      const started = performance.now();
      const slow = await s.app.inject({ method: 'GET', url: '/slow' });
      assert.equal(slow.statusCode, 504, slow.body);
      assertProblem(slow);
      const running = engine.sleeps.running;
      // A server's statement is interrupted: the answer comes at the time-out, not after the sleep,
      // and nothing is left running. PGlite runs on this thread: the answer waits for the statement.
      if (running !== undefined) {
        assert.ok(performance.now() - started < (engine.sleeps.long * 1000) / 2, 'answered at the time-out, not after the statement');
        assert.deepEqual(await running(s, mark), [], 'the sleep was stopped on the server');
      }
      await poolWhole(s);
    });

    test('an SQL error is a 500 problem naming the step that leaks nothing; the log has it', async () => {
      const broken = await s.app.inject({ method: 'GET', url: '/broken' });
      assert.equal(broken.statusCode, 500);
      assertProblem(broken);
      assert.doesNotMatch(broken.body, /no_such_table|SELECT|relation/);
      assert.doesNotMatch(broken.body, engine.leaks);
      assertNoPlace(broken.body);
      assert.equal(broken.json().step, 'bad');
      const line = s.log.requests().find((l) => l.step === 'bad');
      assert.match(JSON.stringify(line?.err), /no_such_table/);
      await poolWhole(s);
    });

    test("a value the column refuses is the request's fault: 400, nothing of the engine; one it takes is stored", async () => {
      const refused = await s.app.inject({ method: 'POST', url: '/refused', payload: { v: engine.sql.refused.value } });
      assert.equal(refused.statusCode, 400, refused.body);
      assertProblem(refused);
      assert.doesNotMatch(refused.body, /INSERT INTO|refused_values/);
      assert.doesNotMatch(refused.body, engine.leaks);
      assertNoPlace(refused.body);
      assert.equal((await s.app.inject({ method: 'POST', url: '/refused', payload: { v: engine.sql.refused.accepted } })).statusCode, 204);
      await poolWhole(s);
    });

    extras.tests?.(
      () => s,
      () => database,
    );
  });
}
