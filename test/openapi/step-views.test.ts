/**
 * src/openapi reads step specs through structural views (src/openapi/step-views.ts), since it may not
 * import src/steps. The assignments below are the type check that each view still matches the spec
 * src/steps decodes (a renamed or retyped member fails `tsc`); the run checks the views' selectors
 * on a real model.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  allSteps,
  catchesOf,
  childrenOf,
  type DeclaredOutputsView,
  isHttp,
  isRedis,
  isSql,
  type HttpView,
  type RedisView,
  type SqlView,
} from '../../src/openapi/step-views.js';
import { buildServiceModel, type CustomStepSpec, type HttpStepSpec, type RedisStepSpec, type SqlStepSpec, type StepSpec } from '../../src/steps/index.js';

const views = {
  sql: (s: SqlStepSpec): SqlView => s,
  http: (s: HttpStepSpec): HttpView => s,
  redis: (s: RedisStepSpec): RedisView => s,
  custom: (s: CustomStepSpec): DeclaredOutputsView => s,
};

test('the views select their kinds and reach nested steps and catch blocks', () => {
  const built = buildServiceModel([
    {
      filename: 'main.hcl',
      source: `
connection "postgres" "db" {
  url = "pglite:"
}
connection "redis" "c" {
  url = "memory:"
}
endpoint "GET /x" {
  pipeline {
    parallel {
      redis "r" {
        connection = connection.redis.c
        command    = "GET"
        key        = "k"
      }
      http "h" {
        url = "http://127.0.0.1:1/"
      }
    }
    transaction "t" {
      connection = connection.postgres.db
      sql "q" {
        query = "SELECT 1 AS one"
      }
      catch "23505" {
        status = 409
      }
    }
    respond {
      body = steps.q.row
    }
  }
}
endpoint "GET /s" {
  pipeline {
    sql "s" {
      connection = connection.postgres.db
      query      = "SELECT 1 AS one"
      stream     = true
    }
    stream "ndjson" {
      source = steps.s.stream
    }
  }
}`,
    },
  ]);
  assert.ok(built.model, built.diagnostics.map((d) => d.summary).join('; '));
  const [x, s] = built.model.endpoints;
  const steps = allSteps(x!.kind === 'pipeline' ? x!.steps : []) as StepSpec[];
  assert.deepEqual(
    steps.map((p) => p.kind),
    ['parallel', 'redis', 'http', 'transaction', 'sql', 'respond'],
  );
  assert.equal(childrenOf(steps[0]!).length, 2);
  assert.deepEqual(
    catchesOf(steps[3]!).map((c) => c.status),
    [409],
  );
  assert.deepEqual(catchesOf(steps[4]!), []);
  for (const spec of steps) {
    if (spec.kind === 'redis') assert.ok(isRedis(views.redis(spec)));
    if (spec.kind === 'http') assert.ok(isHttp(views.http(spec)));
    if (spec.kind === 'sql') assert.ok(isSql(views.sql(spec)));
  }
  // What the steps answer with comes from their kinds, through the model.
  assert.deepEqual(x!.kind === 'pipeline' ? x!.responses.map((r) => r.kind) : [], ['body']);
  assert.deepEqual(s!.kind === 'pipeline' ? s!.responses.map((r) => r.kind) : [], ['stream']);
});
