/**
 * A sql step with `stream = true` read by a `stream` step, end to end over real sockets, on one
 * engine: 100,000 rows as ndjson, byte-exact; csv with its header; a query error is an ordinary 500
 * problem (nothing streamed) whose log line names the step; a client that hangs up mid-download
 * gives the connection back and leaves nothing running, alone or many at once; and, where the
 * engine lets it be watched, a client that stops reading stops the database: the rows it has
 * produced (a per-row sequence) stop growing, far below the total.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '../connectors/helpers.js';
import { fetchAll, listenLocal, open } from '../http/stream-helpers.js';
import { assertProblem, exec, poolWhole, rowsOf, serveOn, type Engine, type ServedSql } from './engine.js';

/** The name the numbers query's row source goes by, which the probes of running statements look for. */
const NUMBERS = 'stream_numbers';

function manifest(engine: Engine): string {
  const backpressure = engine.backpressure;
  return `
connection "{{KIND}}" "db" {
  url = "{{DB}}"
  ${engine.poolOfFour}
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
      connection = connection.{{KIND}}.db
      stream     = true
      query      = ${JSON.stringify(engine.sql.numbers('@n', 'n', NUMBERS))}
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
      connection = connection.{{KIND}}.db
      stream     = true
      query      = ${JSON.stringify(engine.sql.numbers('3', 'n, ', NUMBERS))}
    }
    stream "csv" {
      source  = steps.numbers.stream
      columns = ["i", "label"]
    }
  }
}
${
  backpressure === undefined
    ? ''
    : `
endpoint "GET /produced.ndjson" {
  pipeline {
    sql "produced" {
      connection = connection.{{KIND}}.db
      stream     = true
      query      = ${JSON.stringify(backpressure.query)}
    }
    stream "ndjson" {
      source = steps.produced.stream
    }
  }
}
`
}
endpoint "GET /missing.ndjson" {
  pipeline {
    sql "missing" {
      connection = connection.{{KIND}}.db
      stream     = true
      query      = "SELECT * FROM stream_http_missing"
    }
    stream "ndjson" {
      source = steps.missing.stream
    }
  }
}
`;
}

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

export function streamSuite(engine: Engine): void {
  describe(`sql stream = true over HTTP on ${engine.name}`, { skip: engine.skip, timeout: 60_000 }, () => {
    let s: ServedSql;
    let database: string;
    let url: string;

    before(async () => {
      database = await engine.fresh();
      s = await serveOn(engine, manifest(engine), database);
      await exec(s, engine.backpressure?.setup ?? []);
      url = await listenLocal(s.app);
    });
    after(() => s?.close());

    /** Nothing of the numbers query left running on the server, where one can be. */
    async function nothingRunning(): Promise<void> {
      if (engine.sleeps.running !== undefined) assert.deepEqual(await engine.sleeps.running(s, NUMBERS), [], 'nothing left running on the server');
    }

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

    test('a query error is found before the head: a 500 problem that leaks nothing, its log line names the step; the connection goes back', async () => {
      const got = await fetchAll(`${url}/missing.ndjson`);
      assert.equal(got.status, 500);
      assertProblem(got);
      assert.doesNotMatch(got.body, /stream_http_missing|relation|doesn't exist/);
      assert.doesNotMatch(got.body, engine.leaks);
      // The log names the step and its line, as for a query that is not streamed.
      const logged = s.log.lines.find((l) => l.msg === 'request failed' && String(l.url).includes('/missing.ndjson'));
      const message = (logged?.err as { message?: string } | undefined)?.message ?? '';
      assert.match(message, /stream_http_missing/);
      const state = engine.missingTable;
      if (state !== undefined) assert.match(message, new RegExp(`^sql "missing" \\(api\\.hcl:\\d+\\): .*\\(SQLSTATE ${state}[,)]`));
      await poolWhole(s);
      assert.deepEqual(await rowsOf(s, 'SELECT 1 AS one'), [{ one: 1 }]);
    });

    test('a client that hangs up mid-download: the cursor is closed, nothing left running, the connection goes back', async () => {
      const res = await open(`${url}/numbers.ndjson?n=1000000`);
      assert.equal(res.statusCode, 200);
      assert.equal(await readLines(res, 20_000), '{"i":20000,"label":"n20000"}');
      res.destroy();
      await poolWhole(s);
      await nothingRunning();
      const again = await fetchAll(`${url}/numbers.ndjson?n=2`);
      assert.equal(again.body, '{"i":1,"label":"n1"}\n{"i":2,"label":"n2"}\n');
    });

    const hangUps = engine.hangUps;
    test(`${typeof hangUps === 'number' ? hangUps : 'many'} clients that hang up mid-download at once leave the pool whole and the database idle`, {
      skip: typeof hangUps === 'string' && hangUps,
    }, async () => {
      // More clients than the pool has: each hangs up after a part of its download, letting the next
      // queued stream have the connection it frees.
      const hangUp = async (i: number): Promise<void> => {
        const res = await open(`${url}/numbers.ndjson?n=1000000`);
        assert.equal(res.statusCode, 200);
        await readLines(res, 1000 + i * 250);
        res.destroy();
      };
      await Promise.all(Array.from({ length: hangUps as number }, (_, i) => hangUp(i)));
      await poolWhole(s);
      await nothingRunning();
      const again = await fetchAll(`${url}/numbers.ndjson?n=1`);
      assert.equal(again.body, '{"i":1,"label":"n1"}\n');
    });

    const backpressure = engine.backpressure;
    test('a client that stops reading stops the database: rows are produced only as the socket drains', {
      skip: backpressure === undefined && `${engine.name}: nothing can watch the rows a stream produces`,
    }, async () => {
      const produced = (): Promise<number> => backpressure!.produced(s, database);
      const res = await open(`${url}/produced.ndjson`);
      // Destroyed whatever happens: a paused download left open holds the server, and the file, open.
      try {
        assert.equal(res.statusCode, 200);
        res.pause();
        // Let the socket buffers on both sides fill, then watch the server's count.
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
        // What stalled is what the buffers on the way hold, far below the query's total.
        assert.ok(stalled < backpressure!.stallsBelow, `the server produced ${stalled} rows for a client that reads nothing`);
        await sleep(300);
        assert.equal(await produced(), stalled, 'and no more while the client still reads nothing');
        // Reading again moves it on: the rows read were produced after the stall. At least, not more:
        // the cursor fetches in batches, and once one ended exactly at the last row read (CI, once).
        await readLines(res, stalled + 1000);
        const moved = await produced();
        assert.ok(moved >= stalled + 1000, `produced ${moved} rows, ${stalled} when stalled, and the client read ${stalled + 1000}`);
      } finally {
        res.destroy();
      }
      await poolWhole(s);
      if (engine.sleeps.running !== undefined)
        assert.deepEqual(await engine.sleeps.running(s, 'stream_http_produced'), [], 'nothing left running on the server');
    });
  });
}
