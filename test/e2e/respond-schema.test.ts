/**
 * End to end (issue 36): `svc serve` as a process, on the real PostgreSQL server, answering sql rows
 * through `respond { schema = ... }`: a row with a `password_hash` column is sent without it (one row
 * and a list of rows), the served document refers to the schema, and a SELECT that forgets a required
 * column is a 500 problem that names the step, with the missing field in the log only.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { kill, serve, type Served } from '../cli/serve-helpers.js';
import { cleanup, NO_REAL_POSTGRES, REAL_POSTGRES_URL, tempDir } from '../connectors/helpers.js';

const TABLE = `respond_schema_${process.pid}_${Date.now()}`;

const MANIFEST = `
connection "postgres" "db" {
  url = env("RESPOND_SCHEMA_DB")
}

schema "user" {
  field "id" {
    type     = int
    required = true
  }
  field "email" {
    type     = string
    required = true
  }
  field "name" {
    type = string
  }
}

endpoint "POST /setup" {
  pipeline {
    transaction "t" {
      connection = connection.postgres.db
      sql "create" {
        query = "CREATE TABLE ${TABLE} (id int PRIMARY KEY, email text NOT NULL, name text, password_hash text NOT NULL)"
      }
      sql "fill" {
        query = "INSERT INTO ${TABLE} VALUES (1, 'ada@example.com', 'Ada', '$argon2id$v=19$m=65536$c2FsdA$aGFzaA'), (2, 'alan@example.com', NULL, '$argon2id$v=19$m=65536$c2FsdA$b3RoZXI')"
      }
    }
    respond {
      status = 204
    }
  }
}

endpoint "POST /teardown" {
  pipeline {
    sql "drop" {
      connection = connection.postgres.db
      query      = "DROP TABLE IF EXISTS ${TABLE}"
    }
    respond {
      status = 204
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
      connection = connection.postgres.db
      query      = "SELECT * FROM ${TABLE} WHERE id = @id"
      args       = { id = ctx.request.path.id }
    }
    respond {
      condition = steps.find.row == null
      body      = problem(404, "No such user")
    }
    respond {
      schema = schema.user
      body   = steps.find.row
    }
  }
}

endpoint "GET /users" {
  pipeline {
    sql "all" {
      connection = connection.postgres.db
      query      = "SELECT * FROM ${TABLE} ORDER BY id"
    }
    respond {
      schema = list(schema.user)
      body   = steps.all.rows
    }
  }
}

endpoint "GET /broken" {
  pipeline {
    sql "all" {
      connection = connection.postgres.db
      query      = "SELECT id, name, password_hash FROM ${TABLE} ORDER BY id"
    }
    respond {
      schema = list(schema.user)
      body   = steps.all.rows
    }
  }
}

endpoint "GET /openapi.json" {
  openapi {
    format = "json"
  }
}
`;

describe('respond schema on a real PostgreSQL server', { skip: REAL_POSTGRES_URL === undefined ? NO_REAL_POSTGRES : false }, () => {
  let served: Served | undefined;
  let base = '';

  before(async () => {
    const dir = await tempDir('svc-respond-schema-');
    await writeFile(join(dir, 'main.hcl'), MANIFEST);
    served = await serve(dir, [], { RESPOND_SCHEMA_DB: REAL_POSTGRES_URL! });
    base = served.url;
    const setup = await fetch(`${base}/setup`, { method: 'POST' });
    assert.equal(setup.status, 204, await setup.text());
  });

  after(async () => {
    if (served) await fetch(`${base}/teardown`, { method: 'POST' }).catch(() => undefined);
    kill(served);
    await cleanup();
  });

  test('a row with a password_hash column is answered without it', async () => {
    const r = await fetch(`${base}/users/1`);
    assert.equal(r.status, 200);
    const text = await r.text();
    assert.deepEqual(JSON.parse(text), { id: 1, email: 'ada@example.com', name: 'Ada' });
    assert.doesNotMatch(text, /password_hash|argon2/);
  });

  test('a list of rows: every element without it; a NULL column is sent as null', async () => {
    const r = await fetch(`${base}/users`);
    assert.equal(r.status, 200);
    const text = await r.text();
    assert.deepEqual(JSON.parse(text), [
      { id: 1, email: 'ada@example.com', name: 'Ada' },
      { id: 2, email: 'alan@example.com', name: null },
    ]);
    assert.doesNotMatch(text, /password_hash|argon2/);
  });

  test('the problem of the other respond is sent as it is', async () => {
    const r = await fetch(`${base}/users/99`);
    assert.equal(r.status, 404);
    assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(((await r.json()) as { title: string }).title, 'No such user');
  });

  test('the served document refers to the schema', async () => {
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: unknown }> }> }>>;
      components: { schemas: Record<string, { properties: object }> };
    };
    assert.deepEqual(document.paths['/users/{id}']!.get!.responses['200']!.content['application/json']!.schema, { $ref: '#/components/schemas/user' });
    assert.deepEqual(Object.keys(document.components.schemas.user!.properties), ['id', 'email', 'name']);
  });

  test('a SELECT without a required column: a 500 naming the step; the field in the log, not in the answer', async () => {
    const r = await fetch(`${base}/broken`);
    assert.equal(r.status, 500);
    const text = await r.text();
    const problem = JSON.parse(text) as { type: string; step?: string };
    assert.equal(problem.type, 'urn:svc:error:internal');
    assert.equal(problem.step, 'respond#1');
    assert.doesNotMatch(text, /password_hash|argon2|email/);
    const deadline = Date.now() + 10_000;
    while (!/required field \\"email\\" of schema user is missing \(at \[0\]\.email\)/.test(served!.stdout()) && Date.now() < deadline) {
      await new Promise((ok) => setTimeout(ok, 20));
    }
    assert.match(served!.stdout(), /required field \\"email\\" of schema user is missing \(at \[0\]\.email\)/);
  });
});
