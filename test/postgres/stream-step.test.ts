/**
 * The sql step with `stream = true` at the step level (the step compiled by its kind and run by the
 * engine, followed by a sink handing `steps.<name>.stream` on as a `stream` step does), on PGlite and
 * the real server: the output `{ stream }` with the request's values bound; the client held by the
 * step from its run to the end of the rows, and given back when the stream outcome is disposed
 * however it ended (read to the end, left mid-way, never read); a query error rejects the first
 * pull; the step's time-out and a teardown bound the wait for a client (504, nothing held); the
 * server down fails the step as `dependency-unavailable`, a 503 before any byte. And the boot
 * refusals: no streaming step in a transaction, no `catch` on a streaming step.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Outcome, StepError, StreamOutcome } from '../../graph/index.js';
import { classifyConnectorError, ConnectorError, type PostgresHandle, type SqlCursor } from '../../src/connectors/index.js';
import { codeOf } from '../../src/diag/index.js';
import { failureStatus } from '../../src/http/failure.js';
import { buildServiceModel } from '../../src/steps/index.js';
import { ctx } from '../steps/helpers.js';
import { sourceOf, streamHarness, type StreamHarness } from '../redis/stream-harness.js';
import { closeTargets, eventually, NO_REAL_POSTGRES, ownPostgres, REAL_POSTGRES_URL, TARGETS } from './helpers.js';

after(closeTargets);

const manifest = (url: string, options: { timeout?: string } = {}): string => `
connection "postgres" "db" {
  url = "${url}"
}

endpoint "GET /numbers/{n}" {
  request {
    path {
      field "n" {
        type = int
      }
    }
  }
  pipeline {
    sql "numbers" {
      connection = connection.postgres.db
      stream     = true
      query      = "SELECT i, 'n' || i AS label FROM generate_series(1, @n::int) i"
      args = {
        n = ctx.request.path.n
      }${options.timeout ? `\n      timeout = "${options.timeout}"` : ''}
    }
    stream "ndjson" {
      source = steps.numbers.stream
    }
  }
}
`;

const MISSING = (url: string): string => `
connection "postgres" "db" {
  url = "${url}"
}

endpoint "GET /missing" {
  pipeline {
    sql "missing" {
      connection = connection.postgres.db
      stream     = true
      query      = "SELECT * FROM stream_step_missing"
    }
    stream "ndjson" {
      source = steps.missing.stream
    }
  }
}
`;

type Row = { i: number; label: string };

function failureOf(outcome: Outcome): StepError {
  assert.equal(outcome.kind, 'error', `expected a failed run, got ${outcome.kind}`);
  return (outcome as { error: StepError }).error;
}

async function whole(db: PostgresHandle): Promise<void> {
  const stats = await eventually(
    () => db.stats(),
    (s) => s.waiting === 0 && s.idle === s.total,
    5000,
  );
  assert.equal(stats.idle, stats.total, `every client is back: ${JSON.stringify(stats)}`);
}

for (const target of TARGETS) {
  describe(`sql stream = true on ${target.name}`, { skip: target.skip, timeout: 60_000 }, () => {
    let h: StreamHarness;
    let db: PostgresHandle;

    before(async () => {
      h = await streamHarness(manifest(await target.fresh(), { timeout: '300ms' }));
      db = h.connectors.handle('postgres', 'db');
    });
    after(() => h.close());

    const numbers = (n: number): Promise<StreamOutcome> => h.stream({ n });

    test('the output is { stream }: the rows of the query with the request values bound, read to the end', async () => {
      const outcome = await numbers(1200);
      assert.deepEqual(Object.keys(outcome.payload as object), ['stream']);
      const rows: Row[] = [];
      for await (const row of sourceOf<SqlCursor<Row>>(outcome)) rows.push(row);
      assert.deepEqual(
        rows,
        Array.from({ length: 1200 }, (_, k) => ({ i: k + 1, label: `n${k + 1}` })),
      );
      // Read to the end: the client is back before the outcome is even disposed.
      assert.equal(sourceOf<SqlCursor<Row>>(outcome).released, true);
      await whole(db);
      outcome.dispose('complete');
    });

    test('the client is held from the run to the end of the stream, and given back when it is disposed mid-way', async () => {
      const before = db.stats();
      const outcome = await numbers(100_000);
      // Held as soon as the step has run, before anything is read.
      assert.equal(db.stats().idle, before.idle - 1);
      const cursor = sourceOf<SqlCursor<Row>>(outcome);
      // Pulled by hand and left without return(): only the disposal can close it.
      for (let n = 1; n <= 750; n++) assert.deepEqual(await cursor.next(), { done: false, value: { i: n, label: `n${n}` } });
      assert.equal(cursor.released, false);
      outcome.dispose('cancel');
      await whole(db);
      assert.equal(cursor.released, true);
      assert.equal(db.stats().total, before.total, 'closed at a suspended portal: the client is reused');
      assert.deepEqual((await db.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
    });

    test('a stream never read: disposing the outcome closes the cursor', async () => {
      const outcome = await numbers(10);
      const cursor = sourceOf<SqlCursor<Row>>(outcome);
      assert.equal(cursor.released, false);
      outcome.dispose('cancel');
      await eventually(
        () => cursor.released,
        (released) => released,
        5000,
      );
      await whole(db);
    });

    test('a query error: the step runs, and the first pull rejects with the connector error (no outage category: a 500)', async () => {
      const m = await streamHarness(MISSING(await target.fresh()));
      try {
        const outcome = await m.stream();
        const error = await sourceOf<SqlCursor>(outcome)
          .next()
          .then(
            () => assert.fail('the first pull must reject'),
            (e: unknown) => e,
          );
        assert.ok(error instanceof ConnectorError);
        assert.equal(error.code, '42P01');
        assert.equal(classifyConnectorError(error), undefined);
        outcome.dispose('error', error);
        await whole(m.connectors.handle('postgres', 'db'));
      } finally {
        await m.close();
      }
    });

    test("the step's time-out bounds the wait for a client: 504, and the late client goes back", async () => {
      // Hold every client of the pool.
      const held = await Promise.all(Array.from({ length: db.stats().max }, () => db.checkout()));
      try {
        const started = performance.now();
        const error = failureOf(await h.run({ n: 5 }));
        assert.equal(error.category, 'timeout');
        assert.equal(failureStatus(error.category), 504);
        assert.ok(performance.now() - started < 2000);
      } finally {
        for (const session of held) session.release();
      }
      await whole(db);
    });

    test('the run torn down while the step waits for a client: the wait is abandoned, nothing is held', async () => {
      const held = await Promise.all(Array.from({ length: db.stats().max }, () => db.checkout()));
      const outcomes: Outcome[] = [];
      const subscription = h.graph.run({ steps: {}, ctx: ctx({ path: { n: 5 } }) }).subscribe((o) => outcomes.push(o));
      // Polled, not slept: on a loaded machine the step may take longer than any fixed pause to get there.
      for (const until = performance.now() + 10_000; db.stats().waiting === 0 && performance.now() < until; ) {
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(db.stats().waiting, 1, 'the step waits for a client');
      subscription.unsubscribe();
      for (const session of held) session.release();
      await whole(db);
      assert.deepEqual(outcomes, []);
    });
  });
}

describe('sql stream = true when the server is down', { skip: REAL_POSTGRES_URL === undefined && NO_REAL_POSTGRES, timeout: 60_000 }, () => {
  test('the step fails as dependency-unavailable (503) before any row, and streams again once the server is back', async (t) => {
    const own = await ownPostgres('svc-pg-stream-');
    t.after(() => own.remove());
    const h = await streamHarness(manifest(own.url));
    t.after(() => h.close());
    await own.halt();
    const error = failureOf(await h.run({ n: 3 }));
    assert.equal(error.category, 'dependency-unavailable');
    assert.equal(failureStatus(error.category), 503);
    await own.restart();
    const outcome = await eventually(
      () => h.run({ n: 3 }),
      (o) => o.kind === 'stream',
      10_000,
    );
    assert.equal(outcome.kind, 'stream');
    const rows: Row[] = [];
    for await (const row of sourceOf<SqlCursor<Row>>(outcome as StreamOutcome)) rows.push(row);
    assert.deepEqual(
      rows.map((r) => r.i),
      [1, 2, 3],
    );
    (outcome as StreamOutcome).dispose('complete');
  });
});

describe('boot refusals', () => {
  const errorsOf = (source: string): [string, string | undefined, number | undefined][] =>
    buildServiceModel([{ filename: 'api.hcl', source }], { dir: '.' })
      .diagnostics.filter((d) => d.severity === 'error')
      .map((d) => [d.summary, codeOf(d), d.subject?.start.line]);

  test('a streaming sql step inside a transaction', () => {
    const errors = errorsOf(`
connection "postgres" "db" {
  url = "pglite:"
}

endpoint "GET /t" {
  pipeline {
    transaction "tx" {
      connection = connection.postgres.db

      sql "rows" {
        query  = "SELECT 1"
        stream = true
      }
    }
    respond {
      body = "x"
    }
  }
}
`);
    assert.deepEqual(errors, [['Streaming sql step in a transaction', 'SVC_STEP_STREAM_IN_TRANSACTION', 13]]);
  });

  test('a catch block on a streaming sql step, one error per catch', () => {
    const errors = errorsOf(`
connection "postgres" "db" {
  url = "pglite:"
}

endpoint "GET /t" {
  pipeline {
    sql "rows" {
      connection = connection.postgres.db
      query      = "SELECT 1"
      stream     = true
      catch "23505" {
        status = 409
      }
      catch "42P01" {
        status = 404
      }
    }
    stream "ndjson" {
      source = steps.rows.stream
    }
  }
}
`);
    assert.deepEqual(errors, [
      ['Catch on a streaming sql step', 'SVC_STEP_CATCH_ON_STREAM', 12],
      ['Catch on a streaming sql step', 'SVC_STEP_CATCH_ON_STREAM', 15],
    ]);
  });

  test('stream = false (or absent) keeps catch and transactions as they are', () => {
    const errors = errorsOf(`
connection "postgres" "db" {
  url = "pglite:"
}

endpoint "GET /t" {
  pipeline {
    transaction "tx" {
      connection = connection.postgres.db

      sql "rows" {
        query  = "SELECT 1"
        stream = false
        catch "23505" {
          status = 409
        }
      }
    }
    respond {
      body = steps.rows.rows
    }
  }
}
`);
    assert.deepEqual(errors, []);
  });
});
