/**
 * The sql step with `stream = true` at the step level on PGlite and the real server: the shared
 * suite of test/sql-suite (the output `{ stream }`, the client held from the run to the end of the
 * rows and given back however the stream ended, a query error on the first pull, the wait for a
 * client bounded). Here: the server down fails the step as `dependency-unavailable`, a 503 before
 * any byte; and the boot refusals: no streaming step in a transaction, no `catch` on a streaming step.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { StreamOutcome } from '../../graph/index.js';
import type { SqlCursor } from '../../src/connectors/index.js';
import { codeOf } from '../../src/diag/index.js';
import { failureStatus } from '../../src/http/failure.js';
import { buildServiceModel } from '../../src/steps/index.js';
import { failureOf, numbersManifest, streamStepSuite } from '../sql-suite/stream-step.js';
import { sourceOf, streamHarness } from '../redis/stream-harness.js';
import { ENGINES } from './engine.js';
import { closeTargets, eventually, NO_REAL_POSTGRES, ownPostgres, REAL_POSTGRES_URL } from './helpers.js';

after(closeTargets);

for (const engine of ENGINES) streamStepSuite(engine);

type Row = { i: number; label: string };
const POSTGRES = ENGINES.find((e) => e.name === 'postgres')!;

describe('sql stream = true when the server is down', { skip: REAL_POSTGRES_URL === undefined && NO_REAL_POSTGRES, timeout: 60_000 }, () => {
  test('the step fails as dependency-unavailable (503) before any row, and streams again once the server is back', async (t) => {
    const own = await ownPostgres('svc-pg-stream-');
    t.after(() => own.remove());
    const h = await streamHarness(numbersManifest(POSTGRES, own.url));
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
