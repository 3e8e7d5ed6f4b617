/**
 * What a request that ends early leaves behind on SQLite, on `sqlite::memory:` (one connection, so
 * anything left holding it would stop every later statement): a client that hangs up mid-stream, a
 * transaction cut short by the request's time-out; and request values that look like SQL, inert.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SqlHandle } from '../../src/connectors/index.js';
import { serveManifest, type ServedService } from '../http/helpers.js';
import { SQLITE_ONLY } from './helpers.js';

const MANIFEST = `
connection "sqlite" "db" {
  url = "sqlite::memory:"
}

endpoint "GET /rows.ndjson" {
  pipeline {
    sql "all" {
      connection = connection.sqlite.db
      query      = "SELECT n, 'padding padding padding padding padding padding' AS pad FROM numbers ORDER BY n"
      stream     = true
    }
    stream "ndjson" {
      source = steps.all.stream
    }
  }
}

endpoint "POST /notes" {
  request {
    body {
      field "text" {
        type     = string
        required = true
      }
    }
  }
  pipeline {
    sql "note" {
      connection = connection.sqlite.db
      query      = "INSERT INTO notes (text) VALUES (@text) RETURNING id, text"
      args = {
        text = ctx.request.body.text
      }
    }
    respond {
      status = 201
      body   = steps.note.row
    }
  }
}
`;

/** A service whose requests time out after 100 ms, for a transaction that outlives it. */
const CUT_SHORT = `
server {
  request_timeout = "100ms"
}

connection "sqlite" "db" {
  url = "sqlite::memory:"
}

endpoint "POST /slow-order" {
  pipeline {
    transaction "t" {
      connection = connection.sqlite.db
      sql "first" {
        query = "INSERT INTO notes (text) VALUES ('cut short')"
      }
      # Counting to 3,000,000 takes SQLite hundreds of milliseconds, many times the request's time-out,
      # which ends the request at the next turn of the loop, before the second insert.
      sql "slow" {
        query = "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 3000000) SELECT count(*) AS n FROM s"
      }
      sql "second" {
        query = "INSERT INTO notes (text) VALUES ('never')"
      }
    }
    respond {
      status = 204
    }
  }
}

`;

describe('sqlite: requests that end early, on sqlite::memory:', SQLITE_ONLY, () => {
  let service: ServedService;
  let db: SqlHandle;
  let port: number;
  before(async () => {
    service = await serveManifest(MANIFEST);
    db = service.connectors.get('sqlite.db') as SqlHandle;
    await db.query('CREATE TABLE numbers (n INTEGER)');
    await db.query('WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 50000) INSERT INTO numbers SELECT n FROM s');
    await db.query('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
    await service.app.listen({ host: '127.0.0.1', port: 0 });
    port = (service.app.server.address() as AddressInfo).port;
  });
  after(() => service?.close());

  /** The connection is free: a write answers (a cursor or a transaction left holding it would stop it). */
  async function connectionFree(): Promise<void> {
    const answer = await service.app.inject({ method: 'POST', url: '/notes', payload: { text: 'after' } });
    assert.equal(answer.statusCode, 201);
    assert.deepEqual(db.stats(), { total: 1, idle: 1, waiting: 0, max: 1 });
  }

  test('a client that hangs up mid-download: the cursor is closed and the connection free', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/rows.ndjson' }, (res) => {
        assert.equal(res.statusCode, 200);
        res.once('data', () => {
          // One chunk read, then gone.
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => {});
      req.once('error', reject);
      req.end();
    });
    // The teardown runs when the server sees the socket close.
    for (let i = 0; i < 100 && db.stats().idle !== 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await connectionFree();
  });

  test("a transaction cut short by the request's time-out leaves no row and the connection free", async () => {
    const short = await serveManifest(CUT_SHORT);
    try {
      const handle = short.connectors.get('sqlite.db') as SqlHandle;
      await handle.query('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
      const answer = await short.app.inject({ method: 'POST', url: '/slow-order' });
      assert.equal(answer.statusCode, 504, answer.body);
      assert.deepEqual((await handle.query('SELECT count(*) AS n FROM notes')).rows, [{ n: 0 }]);
      assert.deepEqual(handle.stats(), { total: 1, idle: 1, waiting: 0, max: 1 });
      assert.equal((await handle.query("INSERT INTO notes (text) VALUES ('after')")).rowCount, 1);
    } finally {
      await short.close();
    }
  });

  test('request values that look like SQL are values', async () => {
    const text = "x'); DROP TABLE notes; --";
    const answer = await service.app.inject({ method: 'POST', url: '/notes', payload: { text } });
    assert.equal(answer.statusCode, 201);
    assert.equal(answer.json().text, text);
    assert.deepEqual((await db.query({ text: 'SELECT count(*) AS n FROM notes WHERE text = ?1', values: [text] })).rows, [{ n: 1 }]);
  });
});
