/** The sql step on MariaDB: binding, outputs, value types, catch by SQLSTATE and by error number, time-outs, bad input. */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { dropDatabases, freshDatabase, marker, NO_MYSQL, poolWhole, runningStatements, serve } from './helpers.js';

after(dropDatabases);

const MANIFEST = `
connection "mysql" "db" {
  url = "{{DB}}"
}

endpoint "POST /setup" {
  pipeline {
    sql "create" {
      query = "CREATE TABLE users (id BIGINT AUTO_INCREMENT PRIMARY KEY, email VARCHAR(100) UNIQUE NOT NULL, name VARCHAR(20), age TINYINT UNSIGNED, active BOOLEAN NOT NULL DEFAULT TRUE, created TIMESTAMP(3) NOT NULL DEFAULT '2024-05-06 07:08:09.000')"
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
      field "age" {
        type = int
      }
    }
  }
  pipeline {
    sql "insert" {
      query = "INSERT INTO users (email, name, age) VALUES (@email, @name, @age) RETURNING id, email, name, active"
      args = {
        email = ctx.request.body.email
        name  = ctx.request.body.name
        age   = ctx.request.body.age
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

endpoint "POST /users-by-number" {
  request {
    body {
      field "email" {
        type     = string
        required = true
      }
    }
  }
  pipeline {
    sql "insert" {
      query = "INSERT INTO users (email) VALUES (@email)"
      args = {
        email = ctx.request.body.email
      }
      catch "1062" {
        status = 409
        body   = problem(409, "Taken (1062)")
      }
    }
    respond {
      status = 201
      body   = { affected = steps.insert.rows_affected }
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
      query = "SELECT CAST(9007199254740993 AS SIGNED) AS big, CAST(42 AS SIGNED) AS small, CAST(12.50 AS DECIMAL(10,2)) AS price, CAST(X'0102ff' AS BINARY) AS raw, JSON_EXTRACT('{\\"a\\": [1, true]}', '$') AS doc, CAST('2024-05-06 07:08:09.5' AS DATETIME(3)) AS local, CAST('2024-05-06' AS DATE) AS day, 1.5e0 AS ratio, NULL AS nothing"
    }
    respond {
      body = steps.t.row
    }
  }
}

endpoint "GET /columns" {
  pipeline {
    sql "make" {
      query = "CREATE TABLE IF NOT EXISTS typed (id INT PRIMARY KEY, flag BOOLEAN, small TINYINT, doc JSON, at TIMESTAMP(6) NULL, local DATETIME, day DATE, big BIGINT UNSIGNED, blob_col BLOB, fl FLOAT)"
    }
    sql "fill" {
      query = "REPLACE INTO typed VALUES (1, TRUE, 7, '{\\"k\\": [1, 2]}', '2024-05-06 07:08:09.123456', '2024-05-06 07:08:09', '2024-05-06', 18446744073709551615, X'ff00', 0.1)"
    }
    sql "read" {
      query = "SELECT flag, small, doc, at, local, day, big, blob_col, fl FROM typed WHERE id = @id"
      args  = { id = 1 }
    }
    respond {
      body = steps.read.row
    }
  }
}

endpoint "GET /slow" {
  pipeline {
    sql "sleep" {
      query   = "SELECT SLEEP(5) AS {{MARK}}"
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

endpoint "POST /too-long" {
  request {
    body {
      field "name" {
        type     = string
        required = true
      }
    }
  }
  pipeline {
    sql "insert" {
      query = "INSERT INTO users (email, name) VALUES ('long@example.com', @name)"
      args  = { name = ctx.request.body.name }
    }
    respond {
      status = 201
      body   = "never"
    }
  }
}
`;

describe('sql steps on MariaDB', { skip: NO_MYSQL }, () => {
  test('insert with RETURNING, select by parameter, 404 on a miss, 409 from catch "23505" and from catch "1062"', async () => {
    const s = await serve(MANIFEST, await freshDatabase());
    try {
      assert.equal((await s.app.inject({ method: 'POST', url: '/setup' })).statusCode, 204);
      const created = await s.app.inject({ method: 'POST', url: '/users', payload: { email: 'ada@example.com', name: 'Ada' } });
      assert.equal(created.statusCode, 201, created.body);
      assert.deepEqual(created.json(), { id: 1, email: 'ada@example.com', name: 'Ada', active: true });
      const found = await s.app.inject({ method: 'GET', url: '/users/1' });
      assert.equal(found.statusCode, 200);
      assert.deepEqual(found.json(), { id: 1, email: 'ada@example.com', name: 'Ada', active: true, created: '2024-05-06T07:08:09.000Z' });
      assert.equal((await s.app.inject({ method: 'GET', url: '/users/2' })).statusCode, 404);
      const taken = await s.app.inject({ method: 'POST', url: '/users', payload: { email: 'ada@example.com' } });
      assert.equal(taken.statusCode, 409);
      assert.match(taken.headers['content-type'] as string, /^application\/problem\+json/);
      assert.equal(taken.json().detail, 'ada@example.com is already registered');
      const byNumber = await s.app.inject({ method: 'POST', url: '/users-by-number', payload: { email: 'ada@example.com' } });
      assert.equal(byNumber.statusCode, 409);
      assert.equal(byNumber.json().title, 'Taken (1062)');
      const other = await s.app.inject({ method: 'POST', url: '/users-by-number', payload: { email: 'bob@example.com' } });
      assert.deepEqual(other.json(), { affected: 1 });
      await poolWhole(s);
    } finally {
      await s.close();
    }
  });

  test('SQL injection through every request coordinate is inert', async () => {
    const s = await serve(MANIFEST, await freshDatabase());
    try {
      await s.app.inject({ method: 'POST', url: '/setup' });
      const hostile = ["x'); DROP TABLE users; --", "' OR '1'='1", '@q', '?', '\\', "'; SELECT SLEEP(1); --"];
      for (const email of hostile) {
        const r = await s.app.inject({ method: 'POST', url: '/users', payload: { email, name: email.slice(0, 20) } });
        assert.equal(r.statusCode, 201, r.body);
        assert.equal(r.json().email, email);
      }
      const search = await s.app.inject({ method: 'GET', url: '/search', query: { q: "' OR '1'='1" } });
      assert.deepEqual(search.json(), { emails: ["' OR '1'='1"], count: 1 });
      assert.equal((await s.app.inject({ method: 'GET', url: '/users/1%20OR%201=1' })).statusCode, 422);
      const all = await s.app.inject({ method: 'GET', url: '/search', query: { q: '%' } });
      assert.equal(all.json().count, hostile.length, 'the table is whole');
    } finally {
      await s.close();
    }
  });

  test('values are JSON-safe: BIGINT exact, DECIMAL as text, binary base64, JSON parsed, times as ISO 8601, TINYINT(1) boolean', async () => {
    const s = await serve(MANIFEST, await freshDatabase());
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
          doc: { a: [1, true] },
          local: '2024-05-06T07:08:09.5',
          day: '2024-05-06',
          ratio: 1.5,
          nothing: null,
        },
      );
      const c = await s.app.inject({ method: 'GET', url: '/columns' });
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
    } finally {
      await s.close();
    }
  });

  test('a step time-out answers 504 and KILL QUERY stops the statement on the server', async () => {
    const mark = marker();
    const db = await freshDatabase();
    const s = await serve(MANIFEST.replace('{{MARK}}', mark), db);
    try {
      const r = await s.app.inject({ method: 'GET', url: '/slow' });
      assert.equal(r.statusCode, 504, r.body);
      assert.deepEqual(await runningStatements(db, mark), [], 'the SLEEP was killed');
      await poolWhole(s);
    } finally {
      await s.close();
    }
  });

  test('a database error is a 500 problem without SQL text or driver internals; a value the column refuses is a 400', async () => {
    const s = await serve(MANIFEST, await freshDatabase());
    try {
      await s.app.inject({ method: 'POST', url: '/setup' });
      const r = await s.app.inject({ method: 'GET', url: '/broken' });
      assert.equal(r.statusCode, 500);
      assert.match(r.headers['content-type'] as string, /^application\/problem\+json/);
      assert.doesNotMatch(r.body, /no_such_table|ER_NO_SUCH_TABLE|1146|42S02|mysql|SELECT/i);
      const long = await s.app.inject({ method: 'POST', url: '/too-long', payload: { name: 'x'.repeat(50) } });
      assert.equal(long.statusCode, 400, long.body);
      assert.doesNotMatch(long.body, /Data too long|1406|ER_DATA_TOO_LONG|INSERT INTO/i);
      await poolWhole(s);
    } finally {
      await s.close();
    }
  });
});
