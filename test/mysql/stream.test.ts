/**
 * A sql step with `stream = true` on MariaDB, read by a `stream` step over real sockets: 100,000 rows
 * as ndjson, byte-exact; csv; a query error is an ordinary 500 problem (nothing streamed); a client
 * that hangs up mid-download gets its statement killed on the server and the connection destroyed
 * (pool whole, nothing left in the processlist); and a client that stops reading stops the server:
 * the rows it has produced (a NOCACHE sequence, advanced per row) stop growing, far below the total.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { fetchAll, listenLocal, open } from '../http/stream-helpers.js';
import { adminQuery, dropDatabases, eventually, freshDatabase, NO_MYSQL, poolWhole, runningStatements, serve, type ServedMysql } from './helpers.js';

after(dropDatabases);

const MANIFEST = `
connection "mysql" "db" {
  url = "{{DB}}"
  pool {
    max = 4
  }
}

endpoint "GET /numbers.ndjson" {
  request {
    query {
      field "n" {
        type     = int
        required = true
      }
    }
  }
  pipeline {
    sql "numbers" {
      connection = connection.mysql.db
      stream     = true
      query      = "SELECT seq AS i, CONCAT('n', seq) AS label FROM seq_1_to_2000000 WHERE seq <= @n ORDER BY seq"
      args = {
        n = ctx.request.query.n
      }
    }
    stream "ndjson" {
      source = steps.numbers.stream
    }
  }
}

endpoint "GET /numbers.csv" {
  pipeline {
    sql "numbers" {
      connection = connection.mysql.db
      stream     = true
      query      = "SELECT seq AS i, CONCAT('n, ', seq) AS label FROM seq_1_to_3"
    }
    stream "csv" {
      source  = steps.numbers.stream
      columns = ["i", "label"]
    }
  }
}

endpoint "GET /produced.ndjson" {
  pipeline {
    sql "produced" {
      connection = connection.mysql.db
      stream     = true
      query      = "SELECT seq AS i, NEXTVAL(produced) AS stream_http_produced, REPEAT('x', 1000) AS pad FROM seq_1_to_200000"
    }
    stream "ndjson" {
      source = steps.produced.stream
    }
  }
}

endpoint "GET /missing.ndjson" {
  pipeline {
    sql "missing" {
      connection = connection.mysql.db
      stream     = true
      query      = "SELECT * FROM stream_http_missing"
    }
    stream "ndjson" {
      source = steps.missing.stream
    }
  }
}
`;

/** Reads a response until `lines` more lines have arrived, then pauses it; answers the last line. */
function readLines(res: IncomingMessage, lines: number, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    let tail = '';
    const timer = setTimeout(() => {
      res.off('data', onData);
      reject(new Error(`${seen} of ${lines} lines in ${timeoutMs} ms`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      const parts = (tail + chunk.toString('utf8')).split('\n');
      tail = parts.pop()!;
      for (const line of parts) {
        if (++seen === lines) {
          clearTimeout(timer);
          res.off('data', onData);
          res.pause();
          resolve(line);
          return;
        }
      }
    };
    res.on('data', onData);
    res.resume();
  });
}

describe('sql stream = true over HTTP on MariaDB', { skip: NO_MYSQL, timeout: 60_000 }, () => {
  let s: ServedMysql;
  let db: string;
  let url: string;

  /** Rows the produced endpoint has made so far: the sequence's next value, minus one. */
  async function produced(): Promise<number> {
    const [row] = await adminQuery<{ next: number }[]>(db, 'SELECT next_not_cached_value AS next FROM produced');
    return Number(row!.next) - 1;
  }

  before(async () => {
    db = await freshDatabase();
    s = await serve(MANIFEST, db);
    await s.db.query('CREATE SEQUENCE produced NOCACHE');
    url = await listenLocal(s.app);
  });
  after(() => s?.close());

  test('100,000 rows as ndjson, in order, byte-exact; the connection goes back', async () => {
    const got = await fetchAll(`${url}/numbers.ndjson?n=100000`);
    assert.equal(got.status, 200);
    assert.equal(got.headers['content-type'], 'application/x-ndjson');
    assert.equal(got.complete, true);
    let expected = '';
    for (let i = 1; i <= 100_000; i++) expected += `{"i":${i},"label":"n${i}"}\n`;
    assert.equal(got.body.length, expected.length);
    assert.ok(got.body === expected, 'the body is every row, in order');
    await poolWhole(s);
  });

  test('csv: the header from columns, RFC 4180 quoting', async () => {
    const got = await fetchAll(`${url}/numbers.csv`);
    assert.equal(got.status, 200);
    assert.equal(got.body, 'i,label\r\n1,"n, 1"\r\n2,"n, 2"\r\n3,"n, 3"\r\n');
    await poolWhole(s);
  });

  test('a query error is found before the head: a 500 problem that leaks nothing, the connection goes back', async () => {
    const got = await fetchAll(`${url}/missing.ndjson`);
    assert.equal(got.status, 500);
    assert.match(got.headers['content-type'] as string, /^application\/problem\+json/);
    assert.doesNotMatch(got.body, /stream_http_missing|doesn't exist|1146|42S02/);
    // The log names the step and its line, as for a query that is not streamed.
    const logged = s.log.lines.find((l) => l.msg === 'request failed' && String(l.url).includes('/missing.ndjson'));
    assert.match(
      (logged?.err as { message?: string } | undefined)?.message ?? '',
      /^sql "missing" \(api\.hcl:\d+\): .*stream_http_missing.* \(SQLSTATE 42S02\)/,
    );
    await poolWhole(s);
    assert.deepEqual((await s.db.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
  });

  test('a client that hangs up mid-download: the statement is killed on the server and the connection destroyed', async () => {
    const res = await open(`${url}/numbers.ndjson?n=2000000`);
    assert.equal(res.statusCode, 200);
    assert.equal(await readLines(res, 20_000), '{"i":20000,"label":"n20000"}');
    res.destroy();
    await poolWhole(s);
    assert.deepEqual(await runningStatements(db, 'seq_1_to_2000000'), [], 'nothing left running on the server');
    const again = await fetchAll(`${url}/numbers.ndjson?n=2`);
    assert.equal(again.body, '{"i":1,"label":"n1"}\n{"i":2,"label":"n2"}\n');
  });

  test('12 clients that hang up mid-download at once leave the pool whole and the server idle', async () => {
    const hangUp = async (i: number): Promise<void> => {
      const res = await open(`${url}/numbers.ndjson?n=2000000`);
      assert.equal(res.statusCode, 200);
      await readLines(res, 1000 + i * 250);
      res.destroy();
    };
    await Promise.all(Array.from({ length: 12 }, (_, i) => hangUp(i)));
    await poolWhole(s);
    assert.deepEqual(await runningStatements(db, 'seq_1_to_2000000'), [], 'nothing left running on the server');
    const again = await fetchAll(`${url}/numbers.ndjson?n=1`);
    assert.equal(again.body, '{"i":1,"label":"n1"}\n');
  });

  test('a client that stops reading stops the server: rows are produced only as the socket drains', async () => {
    const res = await open(`${url}/produced.ndjson`);
    try {
      assert.equal(res.statusCode, 200);
      res.pause();
      // Let the socket buffers on the way fill, then watch the server's count.
      const settled = await eventually(
        async () => {
          const first = await produced();
          await sleep(200);
          return [first, await produced()] as const;
        },
        ([first, second]) => first === second && first > 0,
        10_000,
      );
      const stalled = settled[1];
      // 200,000 rows of ~1 KB is ~200 MB; what stalled is what the buffers on the way hold.
      assert.ok(stalled < 60_000, `the server produced ${stalled} rows for a client that reads nothing`);
      await sleep(300);
      assert.equal(await produced(), stalled, 'and no more while the client still reads nothing');
      await readLines(res, stalled + 1000);
      const moved = await produced();
      assert.ok(moved >= stalled + 1000, `produced ${moved} rows, ${stalled} when stalled, and the client read ${stalled + 1000}`);
    } finally {
      res.destroy();
    }
    await poolWhole(s);
    assert.deepEqual(await runningStatements(db, 'stream_http_produced'), [], 'nothing left running on the server');
  });
});
