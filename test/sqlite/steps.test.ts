/**
 * The sql, transaction, parallel and stream steps on SQLite, through the HTTP layer as `svc serve`
 * builds it (one service for the file: a database file, so reads use the read connection): outputs,
 * `@name` parameters, catch blocks by SQLite's code and by PostgreSQL's SQLSTATE, a transaction
 * committed or rolled back, reads in parallel, streamed rows, and every failure a problem answer
 * without SQL text or the engine's message.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SqlHandle } from '../../src/connectors/index.js';
import { serveManifest, type ServedService } from '../http/helpers.js';
import { scratchDir, SQLITE_ONLY } from './helpers.js';

function manifest(dir: string): string {
  return `
connection "sqlite" "db" {
  url          = "sqlite:${join(dir, 'app.db')}"
  migrations   = "${join(dir, 'migrations')}"
  busy_timeout = "100ms"
}

endpoint "GET /items/{id}" {
  request {
    path {
      field "id" {
        type = int
      }
    }
  }
  pipeline {
    sql "item" {
      connection = connection.sqlite.db
      query      = "SELECT id, name, qty, active, meta FROM items WHERE id = @id OR (@id = 0 AND id = 1)"
      args = {
        id = ctx.request.path.id
      }
    }
    respond {
      condition = steps.item.row == null
      body      = problem(404, "No such item", "none")
    }
    respond {
      body = steps.item.row
    }
  }
}

endpoint "POST /items" {
  request {
    body {
      field "name" {
        type     = string
        required = true
      }
      field "qty" {
        type    = int
        default = 1
      }
    }
  }
  pipeline {
    sql "made" {
      connection = connection.sqlite.db
      query      = "INSERT INTO items (name, qty) VALUES (@name, @qty) RETURNING id, name, qty"
      args = {
        name = ctx.request.body.name
        qty  = ctx.request.body.qty
      }
      catch "SQLITE_CONSTRAINT_UNIQUE" {
        status = 409
        body   = problem(409, "Name taken", ctx.request.body.name)
      }
      catch "23514" {
        status = 422
        body   = problem(422, "Bad quantity", "qty must be positive")
      }
    }
    respond {
      status = 201
      body = {
        item     = steps.made.row
        affected = steps.made.rows_affected
      }
    }
  }
}

endpoint "POST /orders" {
  request {
    body {
      field "item" {
        type     = int
        required = true
      }
      field "count" {
        type     = int
        required = true
      }
    }
  }
  pipeline {
    transaction "place" {
      connection = connection.sqlite.db
      sql "take" {
        query = "UPDATE items SET qty = qty - @count WHERE id = @item"
        args = {
          item  = ctx.request.body.item
          count = ctx.request.body.count
        }
      }
      sql "order" {
        query = "INSERT INTO orders (item_id, count) VALUES (@item, @count) RETURNING id, item_id, count"
        args = {
          item  = ctx.request.body.item
          count = ctx.request.body.count
        }
      }
      catch "23514" {
        status = 409
        body   = problem(409, "Not enough stock", "rolled back")
      }
      catch "SQLITE_CONSTRAINT_FOREIGNKEY" {
        status = 404
        body   = problem(404, "No such item", "rolled back")
      }
    }
    respond {
      status = 201
      body = {
        order = steps.order.row
        taken = steps.take.rows_affected
      }
    }
  }
}

endpoint "GET /summary" {
  pipeline {
    parallel {
      sql "items" {
        connection = connection.sqlite.db
        query      = "SELECT count(*) AS n FROM items"
      }
      sql "orders" {
        connection = connection.sqlite.db
        query      = "SELECT count(*) AS n FROM orders"
      }
    }
    respond {
      body = {
        items  = steps.items.row.n
        orders = steps.orders.row.n
      }
    }
  }
}

endpoint "GET /items.ndjson" {
  pipeline {
    sql "all" {
      connection = connection.sqlite.db
      query      = "SELECT id, name, active FROM items WHERE id >= @from ORDER BY id"
      args = {
        from = 1
      }
      stream = true
    }
    stream "ndjson" {
      source = steps.all.stream
    }
  }
}

endpoint "GET /items.csv" {
  pipeline {
    sql "all" {
      connection = connection.sqlite.db
      query      = "SELECT id, name FROM items ORDER BY id"
      stream     = true
    }
    stream "csv" {
      source  = steps.all.stream
      columns = ["id", "name"]
    }
  }
}

endpoint "GET /broken.ndjson" {
  pipeline {
    sql "all" {
      connection = connection.sqlite.db
      query      = "SELECT json_extract('{not json', '$.a') AS a"
      stream     = true
    }
    stream "ndjson" {
      source = steps.all.stream
    }
  }
}

endpoint "POST /strict" {
  request {
    body {
      field "n" {
        type     = string
        required = true
      }
    }
  }
  pipeline {
    sql "put" {
      connection = connection.sqlite.db
      query      = "INSERT INTO strict_numbers (n) VALUES (@n)"
      args = {
        n = ctx.request.body.n
      }
    }
    respond {
      status = 204
    }
  }
}

endpoint "POST /quick" {
  pipeline {
    sql "put" {
      connection = connection.sqlite.db
      query      = "INSERT INTO orders (item_id, count) VALUES (1, 0)"
      timeout    = "100ms"
    }
    respond {
      status = 204
    }
  }
}

endpoint "GET /broken" {
  pipeline {
    sql "bad" {
      connection = connection.sqlite.db
      query      = "SELECT json_extract('{not json', '$.a') AS secret_column"
    }
    respond {
      body = steps.bad.row
    }
  }
}
`;
}

const MIGRATION = `
CREATE TABLE items (
  id     INTEGER PRIMARY KEY,
  name   TEXT NOT NULL UNIQUE,
  qty    INTEGER NOT NULL DEFAULT 1 CHECK (qty >= 0),
  active BOOLEAN NOT NULL DEFAULT 1,
  meta   JSON NOT NULL DEFAULT '{"tags":[]}'
);
CREATE TABLE orders (id INTEGER PRIMARY KEY, item_id INTEGER NOT NULL REFERENCES items (id), count INTEGER NOT NULL);
CREATE TABLE strict_numbers (n INTEGER) STRICT;
INSERT INTO items (name, qty) VALUES ('apple', 5);
`;

describe('sqlite steps through HTTP', SQLITE_ONLY, () => {
  let scratch: Awaited<ReturnType<typeof scratchDir>>;
  let service: ServedService;
  before(async () => {
    scratch = await scratchDir();
    await mkdir(join(scratch.dir, 'migrations'));
    await writeFile(join(scratch.dir, 'migrations', '001.sql'), MIGRATION);
    service = await serveManifest(manifest(scratch.dir));
  });
  after(async () => {
    await service?.close();
    await scratch.remove();
  });

  const inject = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    service.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

  /** No SQL, no engine message, no file path in a problem answer. */
  function assertNoInternals(body: string): void {
    for (const leak of ['SELECT', 'INSERT', 'json_extract', 'malformed', 'SQLITE', 'constraint', 'secret_column', scratch.dir]) {
      assert.ok(!body.includes(leak), `the answer shows "${leak}": ${body}`);
    }
  }

  test('row: the first row, columns as their declared types say; null when none (a name used twice binds once)', async () => {
    const found = await inject('GET', '/items/1');
    assert.equal(found.statusCode, 200);
    assert.deepEqual(found.json(), { id: 1, name: 'apple', qty: 5, active: true, meta: { tags: [] } });
    assert.equal((await inject('GET', '/items/0')).json().name, 'apple');
    assert.equal((await inject('GET', '/items/99')).statusCode, 404);
  });

  test('rows_affected and RETURNING; catch by SQLite name and by SQLSTATE', async () => {
    const made = await inject('POST', '/items', { name: 'pear', qty: 2 });
    assert.equal(made.statusCode, 201);
    assert.deepEqual(made.json(), { item: { id: 2, name: 'pear', qty: 2 }, affected: 1 });
    const taken = await inject('POST', '/items', { name: 'pear' });
    assert.equal(taken.statusCode, 409);
    assert.equal(taken.json().title, 'Name taken');
    const negative = await inject('POST', '/items', { name: 'plum', qty: -1 });
    assert.equal(negative.statusCode, 422);
    assert.equal(negative.json().title, 'Bad quantity');
  });

  test('a transaction commits both statements, or neither when one fails (caught)', async () => {
    const ok = await inject('POST', '/orders', { item: 1, count: 2 });
    assert.equal(ok.statusCode, 201);
    assert.deepEqual(ok.json(), { order: { id: 1, item_id: 1, count: 2 }, taken: 1 });
    const tooMany = await inject('POST', '/orders', { item: 1, count: 100 });
    assert.equal(tooMany.statusCode, 409);
    const missing = await inject('POST', '/orders', { item: 77, count: 1 });
    assert.equal(missing.statusCode, 404, missing.body);
    assert.equal((await inject('GET', '/items/1')).json().qty, 3, 'only the committed order took stock');
    assert.deepEqual((await inject('GET', '/summary')).json(), { items: 2, orders: 1 });
  });

  test('transactions at once queue for the write connection, each whole', async () => {
    await inject('POST', '/items', { name: 'many', qty: 100 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => inject('POST', '/orders', { item: 3, count: 10 })));
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      Array(10).fill(201),
    );
    assert.equal((await inject('GET', '/items/3')).json().qty, 0);
    assert.equal((await inject('POST', '/orders', { item: 3, count: 1 })).statusCode, 409);
  });

  test('stream: ndjson and csv, rows read as they are sent', async () => {
    const ndjson = await inject('GET', '/items.ndjson');
    assert.equal(ndjson.statusCode, 200);
    const lines = ndjson.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(lines[0], { id: 1, name: 'apple', active: true });
    assert.equal(lines.length, 3);
    const csv = await inject('GET', '/items.csv');
    assert.equal(csv.statusCode, 200);
    assert.equal(csv.body.split('\r\n')[0], 'id,name');
  });

  test('a statement that fails is a 500 problem naming the step, nothing of SQLite', async () => {
    const failed = await inject('GET', '/broken');
    assert.equal(failed.statusCode, 500);
    assert.match(String(failed.headers['content-type']), /^application\/problem\+json/);
    assert.equal(failed.json().step, 'bad');
    assertNoInternals(failed.body);
    const stream = await inject('GET', '/broken.ndjson');
    assert.equal(stream.statusCode, 500);
    assertNoInternals(stream.body);
  });

  test("a value the column refuses is the request's fault: 400, nothing of SQLite", async () => {
    const refused = await inject('POST', '/strict', { n: 'abc' });
    assert.equal(refused.statusCode, 400);
    assertNoInternals(refused.body);
    // Text that is a whole number is converted losslessly, as a STRICT column allows.
    assert.equal((await inject('POST', '/strict', { n: '12' })).statusCode, 204);
  });

  test("a statement that waits past its step's timeout behind a transaction: 504, and it never runs", async () => {
    const handle = service.connectors.get('sqlite.db') as SqlHandle;
    const session = await handle.checkout();
    await session.query('BEGIN');
    const before = (await handle.query('SELECT count(*) AS n FROM orders')).rows[0]!.n;
    try {
      const late = await inject('POST', '/quick');
      assert.equal(late.statusCode, 504);
      assertNoInternals(late.body);
    } finally {
      await session.query('ROLLBACK');
      session.release();
    }
    assert.equal((await handle.query('SELECT count(*) AS n FROM orders')).rows[0]!.n, before, 'the abandoned insert did not run later');
    assert.equal((await inject('POST', '/quick')).statusCode, 204);
  });

  test('a database locked by another process past busy_timeout: 503, nothing of SQLite', async () => {
    const script = `
      const { DatabaseSync } = require('node:sqlite');
      const db = new DatabaseSync(${JSON.stringify(join(scratch.dir, 'app.db'))});
      db.exec('BEGIN IMMEDIATE');
      process.stdout.write('locked\\n');
      process.stdin.once('data', () => { db.exec('ROLLBACK'); db.close(); process.exit(0); });
    `;
    const child = spawn(process.execPath, ['--no-warnings', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    await once(child.stdout!, 'data');
    try {
      const locked = await inject('POST', '/items', { name: 'fig' });
      assert.equal(locked.statusCode, 503);
      assertNoInternals(locked.body);
      // Reads still answer (WAL: the other process' write lock does not stop them).
      assert.equal((await inject('GET', '/items/1')).statusCode, 200);
    } finally {
      child.stdin!.write('go\n');
      await once(child, 'exit');
    }
    assert.equal((await inject('POST', '/items', { name: 'fig' })).statusCode, 201);
  });
});
