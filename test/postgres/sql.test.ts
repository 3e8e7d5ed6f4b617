/** The sql step on every postgres target: binding, outputs, value types, catch, time-outs. */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeTargets, serve, TARGETS } from './helpers.js';

after(closeTargets);

const MANIFEST = `
connection "postgres" "db" {
  url = "{{DB}}"
}

endpoint "POST /setup" {
  pipeline {
    sql "create" {
      query = "CREATE TABLE users (id serial PRIMARY KEY, email text UNIQUE NOT NULL, name text, created timestamptz NOT NULL DEFAULT '2024-05-06T07:08:09Z')"
    }
    respond {
      status = 204
    }
  }
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
      query = "INSERT INTO users (email, name) VALUES (@email, @name) RETURNING id, email, name"
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
      query = "SELECT id, email, name, created FROM users WHERE id = @id"
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
      query = "SELECT 9007199254740993::int8 AS big, 42::int8 AS small, 12.50::numeric AS price, '\\\\x0102ff'::bytea AS raw, '{1,2,3}'::int[] AS list, '{\\"a\\": [1, true]}'::jsonb AS doc, '2024-05-06T07:08:09.123Z'::timestamptz AS at, '2024-05-06'::date AS day, true AS flag"
    }
    respond {
      body = steps.t.row
    }
  }
}

endpoint "GET /slow" {
  pipeline {
    sql "sleep" {
      query   = "SELECT pg_sleep(2)"
      timeout = "200ms"
    }
    respond {
      body = "never"
    }
  }
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
`;

for (const target of TARGETS) {
  describe(`sql steps on ${target.name}`, { skip: target.skip }, () => {
    test('insert, select by parameter, 404 on a miss, 409 from catch "23505"', async () => {
      const s = await serve(MANIFEST, await target.fresh());
      try {
        assert.equal((await s.app.inject({ method: 'POST', url: '/setup' })).statusCode, 204);
        const created = await s.app.inject({ method: 'POST', url: '/users', payload: { email: 'ada@example.com', name: 'Ada' } });
        assert.equal(created.statusCode, 201, created.body);
        assert.deepEqual(created.json(), { id: 1, email: 'ada@example.com', name: 'Ada' });
        const found = await s.app.inject({ method: 'GET', url: '/users/1' });
        assert.equal(found.statusCode, 200);
        assert.deepEqual(found.json(), { id: 1, email: 'ada@example.com', name: 'Ada', created: '2024-05-06T07:08:09.000Z' });
        const missing = await s.app.inject({ method: 'GET', url: '/users/2' });
        assert.equal(missing.statusCode, 404);
        const taken = await s.app.inject({ method: 'POST', url: '/users', payload: { email: 'ada@example.com' } });
        assert.equal(taken.statusCode, 409);
        assert.match(taken.headers['content-type'] as string, /^application\/problem\+json/);
        assert.equal(taken.json().detail, 'ada@example.com is already registered');
      } finally {
        await s.close();
      }
    });

    test('SQL injection through every request coordinate is inert', async () => {
      const s = await serve(MANIFEST, await target.fresh());
      try {
        await s.app.inject({ method: 'POST', url: '/setup' });
        const hostile = ["x'); DROP TABLE users; --", "' OR '1'='1", '@q', '$1', '\\', "'; SELECT pg_sleep(1); --"];
        for (const email of hostile) {
          const r = await s.app.inject({ method: 'POST', url: '/users', payload: { email, name: email } });
          assert.equal(r.statusCode, 201, r.body);
          assert.equal(r.json().email, email);
        }
        const search = await s.app.inject({ method: 'GET', url: '/search', query: { q: "' OR '1'='1" } });
        assert.deepEqual(search.json(), { emails: ["' OR '1'='1"], count: 1 });
        const path = await s.app.inject({ method: 'GET', url: '/users/1%20OR%201=1' });
        assert.equal(path.statusCode, 422);
        const all = await s.app.inject({ method: 'GET', url: '/search', query: { q: '%' } });
        assert.equal(all.json().count, hostile.length, 'the table is whole');
      } finally {
        await s.close();
      }
    });

    test('values are JSON-safe: int8 exact, numeric as text, bytea base64, arrays and jsonb as JSON, RFC 3339 times', async () => {
      const s = await serve(MANIFEST, await target.fresh());
      try {
        const r = await s.app.inject({ method: 'GET', url: '/types' });
        assert.equal(r.statusCode, 200, r.body);
        assert.match(r.body, /"big":9007199254740993[,}]/);
        assert.deepEqual(
          { ...(r.json() as Record<string, unknown>), big: undefined },
          {
            big: undefined,
            small: 42,
            price: '12.50',
            raw: 'AQL/',
            list: [1, 2, 3],
            doc: { a: [1, true] },
            at: '2024-05-06T07:08:09.123Z',
            day: '2024-05-06',
            flag: true,
          },
        );
      } finally {
        await s.close();
      }
    });

    test('a step time-out is a 504 problem and cancels the query; an SQL error is a 500 that leaks nothing', async () => {
      const s = await serve(MANIFEST, await target.fresh());
      try {
        const started = Date.now();
        const slow = await s.app.inject({ method: 'GET', url: '/slow' });
        assert.equal(slow.statusCode, 504, slow.body);
        // PGlite runs in this process' thread: a query it is running cannot be interrupted, so the
        // answer waits for it (docs/postgresql.md: the embedded engine is for development). A server's query is
        // cancelled and the answer comes at the time-out.
        if (target.name === 'postgres') assert.ok(Date.now() - started < 3000, 'answered at the time-out, not after the query');
        const broken = await s.app.inject({ method: 'GET', url: '/broken' });
        assert.equal(broken.statusCode, 500);
        assert.doesNotMatch(broken.body, /no_such_table|SELECT|relation/);
        assert.equal(broken.json().step, 'bad');
        const line = s.log.requests().find((l) => l.step === 'bad');
        assert.match(JSON.stringify(line?.err), /no_such_table/);
      } finally {
        await s.close();
      }
    });
  });
}
