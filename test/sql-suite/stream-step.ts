/**
 * The sql step with `stream = true` at the step level, on one engine (the step compiled by its kind
 * and run by the engine, followed by a sink handing `steps.<name>.stream` on as a `stream` step
 * does): the output `{ stream }` with the request's values bound; the connection held by the step
 * from its run to the end of the rows, and given back when the stream outcome is disposed however it
 * ended (read to the end, left mid-way, never read); a query error rejects the first pull; the
 * step's time-out and a teardown bound the wait for a connection (504, nothing held).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Outcome, StepError, StreamOutcome } from '../../graph/index.js';
import { classifyConnectorError, ConnectorError, type SqlCursor, type SqlHandle } from '../../src/connectors/index.js';
import { failureStatus } from '../../src/http/failure.js';
import { eventually } from '../connectors/helpers.js';
import { sourceOf, streamHarness, type StreamHarness } from '../redis/stream-harness.js';
import { ctx } from '../steps/helpers.js';
import type { Engine } from './engine.js';

/** GET /numbers/{n}: the numbers 1 to n streamed, on `url`; the step's `timeout` if given. */
export function numbersManifest(engine: Engine, url: string, options: { timeout?: string } = {}): string {
  return `
connection "${engine.kind}" "db" {
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
      connection = connection.${engine.kind}.db
      stream     = true
      query      = ${JSON.stringify(engine.sql.numbers('@n', 'n', 'stream_step_numbers'))}
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
}

const missing = (engine: Engine, url: string): string => `
connection "${engine.kind}" "db" {
  url = "${url}"
}

endpoint "GET /missing" {
  pipeline {
    sql "missing" {
      connection = connection.${engine.kind}.db
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

export function failureOf(outcome: Outcome): StepError {
  assert.equal(outcome.kind, 'error', `expected a failed run, got ${outcome.kind}`);
  return (outcome as { error: StepError }).error;
}

async function whole(db: SqlHandle): Promise<void> {
  const stats = await eventually(
    () => db.stats(),
    (s) => s.waiting === 0 && s.idle === s.total,
    5000,
  );
  assert.equal(stats.idle, stats.total, `every connection is back: ${JSON.stringify(stats)}`);
}

export function streamStepSuite(engine: Engine): void {
  describe(`sql stream = true on ${engine.name}`, { skip: engine.skip, timeout: 60_000 }, () => {
    let h: StreamHarness;
    let db: SqlHandle;

    before(async () => {
      h = await streamHarness(numbersManifest(engine, await engine.fresh(), { timeout: '300ms' }));
      db = h.connectors.handle(engine.kind, 'db') as SqlHandle;
    });
    after(() => h?.close());

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
      // Read to the end: the connection is back before the outcome is even disposed.
      assert.equal(sourceOf<SqlCursor<Row>>(outcome).released, true);
      await whole(db);
      outcome.dispose('complete');
    });

    test('the connection is held from the run to the end of the stream, and given back when it is disposed mid-way', async () => {
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
      assert.equal(
        db.stats().total,
        before.total - (engine.closedEarly === 'destroyed' ? 1 : 0),
        `a cursor closed early: its connection ${engine.closedEarly}`,
      );
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
      const m = await streamHarness(missing(engine, await engine.fresh()));
      try {
        const outcome = await m.stream();
        const error = await sourceOf<SqlCursor>(outcome)
          .next()
          .then(
            () => assert.fail('the first pull must reject'),
            (e: unknown) => e,
          );
        assert.ok(error instanceof ConnectorError);
        assert.equal(error.code, engine.missingTable);
        assert.equal(classifyConnectorError(error), undefined);
        outcome.dispose('error', error);
        await whole(m.connectors.handle(engine.kind, 'db') as SqlHandle);
      } finally {
        await m.close();
      }
    });

    test("the step's time-out bounds the wait for a connection: 504, and the late connection goes back", async () => {
      // Hold every connection of the pool.
      const held = await Promise.all(Array.from({ length: db.stats().max }, () => db.checkout()));
      try {
        const error = failureOf(await h.run({ n: 5 }));
        assert.equal(error.category, 'timeout');
        assert.equal(failureStatus(error.category), 504);
      } finally {
        for (const session of held) session.release();
      }
      await whole(db);
    });

    test('the run torn down while the step waits for a connection: the wait is abandoned, nothing is held', async () => {
      const held = await Promise.all(Array.from({ length: db.stats().max }, () => db.checkout()));
      const outcomes: Outcome[] = [];
      const subscription = h.graph.run({ steps: {}, ctx: ctx({ path: { n: 5 } }) }).subscribe((o) => outcomes.push(o));
      // Polled, not slept: on a loaded machine the step may take longer than any fixed pause to get there.
      for (const until = performance.now() + 10_000; db.stats().waiting === 0 && performance.now() < until; ) {
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(db.stats().waiting, 1, 'the step waits for a connection');
      subscription.unsubscribe();
      for (const session of held) session.release();
      await whole(db);
      assert.deepEqual(outcomes, []);
    });
  });
}
