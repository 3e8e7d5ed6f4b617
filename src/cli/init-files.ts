/**
 * The project `svc init` writes (./init.ts): a CRUD API of one table on the embedded PostgreSQL, its
 * migration, its OpenAPI document and reference page, a test that serves it and calls it, a README
 * and a .gitignore. Every file is a starting point the user edits; test/cli/init.test.ts serves the
 * result and runs its test, so the scaffold cannot rot.
 */

export interface ScaffoldFile {
  readonly path: string;
  readonly text: string;
}

export function scaffoldFiles(title: string): readonly ScaffoldFile[] {
  return [
    { path: 'main.hcl', text: mainHcl(title) },
    { path: 'items.hcl', text: ITEMS_HCL },
    { path: 'docs.hcl', text: DOCS_HCL },
    { path: 'migrations/001_items.sql', text: MIGRATION },
    { path: 'tests/api.test.mjs', text: API_TEST },
    { path: 'README.md', text: readme(title) },
    { path: '.gitignore', text: '# The embedded database (DATABASE_URL unset)\n.data/\n' },
  ];
}

const mainHcl = (title: string): string => `# ${title}: served with \`npx svc serve -c .\`; \`npx svc check -c .\` checks it without serving.
# README.md says what is where.

server {
  host = "127.0.0.1"
  port = 8080
}

openapi {
  title   = ${JSON.stringify(title)}
  version = "0.1.0"
}

# The embedded PostgreSQL keeps its data in .data/ next to this file; DATABASE_URL points the same
# manifest at a server (postgres://user:password@host:5432/db). The migrations are applied at start.
connection "postgres" "db" {
  url               = env("DATABASE_URL", "pglite:.data")
  migrations        = "migrations"
  statement_timeout = "5s"
}

schema "item_input" {
  field "name" {
    type       = string
    required   = true
    min_length = 1
    max_length = 100
  }
  field "quantity" {
    type    = int
    min     = 0
    default = 0
  }
}
`;

const ITEMS_HCL = `# The items: list, read, create, change, delete. Every request is validated before any query runs
# (a 422 problem names each bad field); a missing item is a 404 problem.

endpoint "GET /items" {
  description = "Lists the items, oldest first"

  request {
    query {
      field "limit" {
        type    = int
        min     = 1
        max     = 100
        default = 20
      }
      field "after" {
        type    = int
        min     = 0
        default = 0
      }
    }
  }

  pipeline {
    sql "items" {
      connection = connection.postgres.db
      query      = "SELECT id, name, quantity, created_at FROM items WHERE id > @after ORDER BY id LIMIT @limit"
      args = {
        after = ctx.request.query.after
        limit = ctx.request.query.limit
      }
    }
    respond {
      body = { items = steps.items.rows }
    }
  }
}

endpoint "GET /items/{id}" {
  description = "Reads one item"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
  }

  pipeline {
    sql "item" {
      connection = connection.postgres.db
      query      = "SELECT id, name, quantity, created_at FROM items WHERE id = @id"
      args       = { id = ctx.request.path.id }
    }
    respond {
      condition = steps.item.row == null
      body      = problem(404, "Item not found", "There is no item \${ctx.request.path.id}.")
    }
    respond {
      body = steps.item.row
    }
  }
}

endpoint "POST /items" {
  description = "Creates an item"

  request {
    body = schema.item_input
  }

  pipeline {
    sql "created" {
      connection = connection.postgres.db
      query      = "INSERT INTO items (name, quantity) VALUES (@name, @quantity) RETURNING id, name, quantity, created_at"
      args = {
        name     = ctx.request.body.name
        quantity = ctx.request.body.quantity
      }
      # A second item of the same name: the unique constraint's SQLSTATE, answered as a 409.
      catch "23505" {
        status = 409
        body   = problem(409, "Item exists", "An item named \${ctx.request.body.name} exists already.")
      }
    }
    respond {
      status = 201
      body   = steps.created.row
    }
  }
}

endpoint "PUT /items/{id}" {
  description = "Replaces an item's name and quantity"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
    body = schema.item_input
  }

  pipeline {
    sql "updated" {
      connection = connection.postgres.db
      query      = "UPDATE items SET name = @name, quantity = @quantity WHERE id = @id RETURNING id, name, quantity, created_at"
      args = {
        id       = ctx.request.path.id
        name     = ctx.request.body.name
        quantity = ctx.request.body.quantity
      }
    }
    respond {
      condition = steps.updated.row == null
      body      = problem(404, "Item not found", "There is no item \${ctx.request.path.id}.")
    }
    respond {
      body = steps.updated.row
    }
  }
}

endpoint "DELETE /items/{id}" {
  description = "Deletes an item"

  request {
    path {
      field "id" {
        type = int
        min  = 1
      }
    }
  }

  pipeline {
    sql "deleted" {
      connection = connection.postgres.db
      query      = "DELETE FROM items WHERE id = @id"
      args       = { id = ctx.request.path.id }
    }
    respond {
      condition = steps.deleted.rows_affected == 0
      body      = problem(404, "Item not found", "There is no item \${ctx.request.path.id}.")
    }
    respond {
      status = 204
      body   = null
    }
  }
}
`;

const DOCS_HCL = `# The OpenAPI 3.1 document of this manifest (what \`npx svc openapi -c .\` prints) and a reference
# page that reads it, both served from this process (the page's scripts too: nothing from elsewhere).

endpoint "GET /openapi.json" {
  openapi {
    format = "json"
  }
}

endpoint "GET /docs" {
  openapi {
    ui = "scalar"
  }
}
`;

const MIGRATION = `-- The items table. Migrations run in file-name order, each once (svc records them); add
-- 002_....sql files for later changes rather than editing this one.

CREATE TABLE items (
  id         bigserial PRIMARY KEY,
  name       text NOT NULL UNIQUE,
  quantity   integer NOT NULL DEFAULT 0 CHECK (quantity >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
`;

const API_TEST = `// The API, served and called: \`node --test\` in the project's directory. It starts \`svc serve\`
// on a free port with an in-memory database (DATABASE_URL=pglite:), so it never touches .data/.
// SVC_BIN names the svc command to run (default: npx svc).
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

const project = fileURLToPath(new URL('..', import.meta.url));
const command = process.env.SVC_BIN ? [process.execPath, process.env.SVC_BIN] : ['npx', 'svc'];
let server;
let base;

before(async () => {
  server = spawn(command[0], [...command.slice(1), 'serve', '-c', project, '--port', '0'], {
    env: { ...process.env, DATABASE_URL: 'pglite:' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  base = await new Promise((resolve, reject) => {
    let err = '';
    server.stderr.on('data', (chunk) => {
      err += chunk;
      const listening = /listening on (http:\\/\\/\\S+)/.exec(err);
      if (listening) resolve(listening[1]);
    });
    server.once('exit', (code) => reject(new Error(\`svc exited with \${code}:\\n\${err}\`)));
  });
});

after(() => server?.kill());

const send = (method, path, body) =>
  fetch(base + path, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });

test('an item is created, read, listed, changed and deleted', async () => {
  const created = await send('POST', '/items', { name: 'bolt', quantity: 3 });
  assert.equal(created.status, 201);
  const item = await created.json();
  assert.equal(item.name, 'bolt');
  assert.equal(item.quantity, 3);

  assert.deepEqual(await (await send('GET', \`/items/\${item.id}\`)).json(), item);
  assert.deepEqual((await (await send('GET', '/items')).json()).items, [item]);

  const changed = await send('PUT', \`/items/\${item.id}\`, { name: 'bolt', quantity: 5 });
  assert.equal((await changed.json()).quantity, 5);

  assert.equal((await send('DELETE', \`/items/\${item.id}\`)).status, 204);
  assert.equal((await send('GET', \`/items/\${item.id}\`)).status, 404);
});

test('bad input is a 422 naming the field; a duplicate name a 409', async () => {
  const invalid = await send('POST', '/items', { quantity: -1 });
  assert.equal(invalid.status, 422);
  const names = (await invalid.json()).invalid_params.map((p) => p.name).sort();
  assert.deepEqual(names, ['name', 'quantity']);

  assert.equal((await send('POST', '/items', { name: 'nut' })).status, 201);
  assert.equal((await send('POST', '/items', { name: 'nut' })).status, 409);
});

test('the OpenAPI document lists the endpoints', async () => {
  const document = await (await send('GET', '/openapi.json')).json();
  assert.deepEqual(Object.keys(document.paths).sort(), ['/items', '/items/{id}']);
});
`;

const readme = (title: string): string => `# ${title}

An HTTP API served by [svc](https://www.npmjs.com/package/svc) from the manifest in this directory.

\`\`\`sh
npx svc serve -c .          # http://127.0.0.1:8080/items, the reference page at /docs
npx svc check -c .          # checks the manifest without serving it
node --test                 # serves it on a free port with an in-memory database and calls it
\`\`\`

| file | what |
|---|---|
| \`main.hcl\` | the server, the OpenAPI title, the database connection, the \`item_input\` schema |
| \`items.hcl\` | \`GET /items\`, \`GET /items/{id}\`, \`POST /items\`, \`PUT /items/{id}\`, \`DELETE /items/{id}\` |
| \`docs.hcl\` | \`GET /openapi.json\` (the OpenAPI 3.1 document) and \`GET /docs\` (a reference page) |
| \`migrations/001_items.sql\` | the \`items\` table, applied at start (once) |
| \`tests/api.test.mjs\` | a test of the API over HTTP |

The database is the embedded PostgreSQL (PGlite), its data in \`.data/\`. \`DATABASE_URL\` points the
same manifest at a PostgreSQL server:

\`\`\`sh
DATABASE_URL=postgres://user:password@localhost:5432/items npx svc serve -c .
\`\`\`

\`npx svc serve -c . --watch\` reloads the manifest when a file changes. A step that fails, a bad
request and a missing item each have a problem answer (\`application/problem+json\`); the log has
one JSON line per request.
`;
