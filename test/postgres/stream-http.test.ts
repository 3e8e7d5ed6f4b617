/**
 * A sql step with `stream = true` read by a `stream` step, end to end over real sockets, on PGlite
 * and the real server: 100,000 rows as ndjson, byte-exact; csv with its header; a query error is an
 * ordinary 500 problem (nothing streamed); a client that hangs up mid-download releases the client
 * (pool whole, no backend left running); and, on the server, a client that stops reading stops the
 * database: the rows the server has produced (a per-row sequence) stop growing, far below the total.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IncomingMessage } from 'node:http';
import { fetchAll, listenLocal, open } from '../http/stream-helpers.js';
import { closeTargets, eventually, poolWhole, rowsOf, serve, TARGETS, type ServedManifest } from './helpers.js';

after(closeTargets);

const MANIFEST = `
connection "postgres" "db" {
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
      connection = connection.postgres.db
      stream     = true
      query      = "SELECT i, 'n' || i AS label FROM generate_series(1, @n::int) i"
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
      connection = connection.postgres.db
      stream     = true
      query      = "SELECT i, 'n, ' || i AS label FROM generate_series(1, 3) i"
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
      connection = connection.postgres.db
      stream     = true
      query      = "SELECT i, nextval('produced') AS stream_http_produced, repeat('x', 200) AS pad FROM generate_series(1, 2000000) i"
    }
    stream "ndjson" {
      source = steps.produced.stream
    }
  }
}

endpoint "GET /missing.ndjson" {
  pipeline {
    sql "missing" {
      connection = connection.postgres.db
      stream     = true
      query      = "SELECT * FROM stream_http_missing"
    }
    stream "ndjson" {
      source = steps.missing.stream
    }
  }
}
`;

/**
 * Reads a response until `lines` more lines have arrived, then pauses it; answers the last line.
 * (Counting newlines per chunk: searching all that was read, as readUntil does, is quadratic.)
 */
function readLines(res: IncomingMessage, lines: number, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    let tail = '';
    const timer = setTimeout(() => {
      res.off('data', onData);
      reject(new Error(`${seen} of ${lines} lines in ${timeoutMs} ms`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      const text = tail + chunk.toString('utf8');
      const parts = text.split('\n');
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

async function produced(s: ServedManifest): Promise<number> {
  const [row] = await rowsOf(s, 'SELECT last_value, is_called FROM produced');
  return row!.is_called ? (row!.last_value as number) : 0;
}

for (const target of TARGETS) {
  describe(`sql stream = true over HTTP on ${target.name}`, { skip: target.skip, timeout: 60_000 }, () => {
    let s: ServedManifest;
    let url: string;

    before(async () => {
      s = await serve(MANIFEST, await target.fresh());
      await s.db.query('CREATE SEQUENCE produced');
      url = await listenLocal(s.app);
    });
    after(() => s.close());

    test('100,000 rows as ndjson, in order, byte-exact; the client goes back', async () => {
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

    test('a query error is found before the head: a 500 problem that leaks nothing, the client goes back', async () => {
      const got = await fetchAll(`${url}/missing.ndjson`);
      assert.equal(got.status, 500);
      assert.match(got.headers['content-type'] as string, /^application\/problem\+json/);
      assert.doesNotMatch(got.body, /stream_http_missing|relation/);
      await poolWhole(s);
      assert.deepEqual(await rowsOf(s, 'SELECT 1 AS one'), [{ one: 1 }]);
    });

    test('a client that hangs up mid-download: the cursor is closed and the client goes back', async () => {
      const res = await open(`${url}/numbers.ndjson?n=1000000`);
      assert.equal(res.statusCode, 200);
      assert.equal(await readLines(res, 20_000), '{"i":20000,"label":"n20000"}');
      res.destroy();
      await poolWhole(s);
      if (target.name === 'postgres') {
        const busy = await eventually(
          () => rowsOf(s, "SELECT state, query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'"),
          (rows) => rows.length === 0,
          5000,
        );
        assert.deepEqual(busy, [], 'no backend left running the query');
      }
      const again = await fetchAll(`${url}/numbers.ndjson?n=2`);
      assert.equal(again.body, '{"i":1,"label":"n1"}\n{"i":2,"label":"n2"}\n');
    });

    test('20 clients that hang up mid-download at once leave the pool whole and the database idle', {
      skip: target.name === 'pglite' && 'PGlite has one client: 20 streams at once would queue behind the first',
    }, async () => {
      // More clients than the pool has: each hangs up after a part of its download, letting the next
      // queued stream have the pool client it frees.
      const hangUp = async (i: number): Promise<void> => {
        const res = await open(`${url}/numbers.ndjson?n=1000000`);
        assert.equal(res.statusCode, 200);
        await readLines(res, 1000 + i * 250);
        res.destroy();
      };
      await Promise.all(Array.from({ length: 20 }, (_, i) => hangUp(i)));
      await poolWhole(s);
      if (target.name === 'postgres') {
        const busy = await eventually(
          () => rowsOf(s, "SELECT state FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'"),
          (rows) => rows.length === 0,
          5000,
        );
        assert.deepEqual(busy, [], 'no backend left running a query');
      }
      const again = await fetchAll(`${url}/numbers.ndjson?n=1`);
      assert.equal(again.body, '{"i":1,"label":"n1"}\n');
    });

    test('a client that stops reading stops the database: rows are produced only as the socket drains', {
      skip: target.name === 'pglite' && 'PGlite has one client: the stream holds it, so nothing can watch',
    }, async () => {
      const res = await open(`${url}/produced.ndjson`);
      // Destroyed whatever happens: a paused download left open holds the server, and the file, open.
      try {
        assert.equal(res.statusCode, 200);
        res.pause();
        // Let the socket buffers on both sides fill, then watch the server's count.
        const settled = await eventually(
          async () => {
            const first = await produced(s);
            await sleep(200);
            return [first, await produced(s)] as const;
          },
          ([first, second]) => first === second && first > 0,
          10_000,
        );
        const stalled = settled[1];
        // 2,000,000 rows of ~250 bytes is ~500 MB; what stalled is what the buffers on the way hold.
        assert.ok(stalled < 200_000, `the server produced ${stalled} rows for a client that reads nothing`);
        await sleep(300);
        assert.equal(await produced(s), stalled, 'and no more while the client still reads nothing');
        // Reading again moves it on: the rows read were produced after the stall. At least, not more:
        // the cursor fetches in batches, and once one ended exactly at the last row read (CI, once).
        await readLines(res, stalled + 1000);
        const moved = await produced(s);
        assert.ok(moved >= stalled + 1000, `produced ${moved} rows, ${stalled} when stalled, and the client read ${stalled + 1000}`);
      } finally {
        res.destroy();
      }
      await poolWhole(s);
    });
  });
}
