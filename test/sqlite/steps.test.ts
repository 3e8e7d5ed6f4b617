/**
 * The sql, transaction, parallel and stream steps on SQLite, through the HTTP layer as `svc serve`
 * builds it: the shared suites of test/sql-suite (sql, catch, transaction, stream), then what is
 * SQLite's own, on one service for a file with migrations (reads on the read connection): the
 * declared BOOLEAN and JSON types, in rows and streamed; a transaction caught by SQLite's code;
 * transactions queueing for the write connection; reads in parallel; an engine failure and a
 * statement waiting behind a transaction or a lock held by another process, each a problem answer
 * without SQL text, the engine's message or the file's path.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SqlHandle } from '../../src/connectors/index.js';
import { cleanup } from '../connectors/helpers.js';
import { serveManifest, type ServedService } from '../http/helpers.js';
import { catchSuite } from '../sql-suite/catch.js';
import { sqlSuite } from '../sql-suite/sql.js';
import { streamSuite } from '../sql-suite/stream.js';
import { transactionSuite } from '../sql-suite/transaction.js';
import { SQLITE } from './engine.js';
import { scratchDir, SQLITE_ONLY } from './helpers.js';

after(cleanup);

sqlSuite(SQLITE);
catchSuite(SQLITE);
transactionSuite(SQLITE);
streamSuite(SQLITE);

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

  test('a transaction commits both statements, or neither when one fails (caught)', async () => {
    const ok = await inject('POST', '/orders', { item: 1, count: 2 });
    assert.equal(ok.statusCode, 201);
    assert.deepEqual(ok.json(), { order: { id: 1, item_id: 1, count: 2 }, taken: 1 });
    const tooMany = await inject('POST', '/orders', { item: 1, count: 100 });
    assert.equal(tooMany.statusCode, 409);
    const missing = await inject('POST', '/orders', { item: 77, count: 1 });
    assert.equal(missing.statusCode, 404, missing.body);
    assert.equal((await inject('GET', '/items/1')).json().qty, 3, 'only the committed order took stock');
    assert.deepEqual((await inject('GET', '/summary')).json(), { items: 1, orders: 1 });
  });

  test('transactions at once queue for the write connection, each whole', async () => {
    const item = (await inject('POST', '/items', { name: 'many', qty: 100 })).json().item.id as number;
    const answers = await Promise.all(Array.from({ length: 10 }, () => inject('POST', '/orders', { item, count: 10 })));
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      Array(10).fill(201),
    );
    assert.equal((await inject('GET', `/items/${item}`)).json().qty, 0);
    assert.equal((await inject('POST', '/orders', { item, count: 1 })).statusCode, 409);
  });

  test('stream: ndjson and csv, declared types read as in rows', async () => {
    const ndjson = await inject('GET', '/items.ndjson');
    assert.equal(ndjson.statusCode, 200);
    const lines = ndjson.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(lines, [
      { id: 1, name: 'apple', active: true },
      { id: 2, name: 'many', active: true },
    ]);
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
