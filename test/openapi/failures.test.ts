/**
 * The statuses a step's failure can answer with, as the OpenAPI document lists them: each comes from
 * its kind's definition (`failures`), built-in or an embedding program's own (`defineStep`), never
 * from a list in src/openapi. An http step's 502 (an upstream that failed) was missing before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildModel } from '../../src/model/index.js';
import { compileOpenApi } from '../../src/openapi/index.js';
import { customStepKind, defineStep, STEP_KINDS, type StepFailureStatus } from '../../src/steps/index.js';
import { documentOf, type Json, operation } from './helpers.js';

const CONNECTIONS = `
connection "postgres" "db" {
  url = "pglite:"
}
connection "redis" "c" {
  url = "memory:"
}
`;

/** The statuses of the one operation of a manifest whose pipeline is `steps` then a respond. */
function statusesOf(steps: string): string[] {
  const doc = documentOf(`${CONNECTIONS}
endpoint "GET /x" {
  pipeline {
${steps}
    respond {
      body = {}
    }
  }
}`);
  return Object.keys(operation(doc, 'GET', '/x').responses);
}

test('an http step lists its 502 bad gateway besides 503 and 504, with its shared response', () => {
  const doc = documentOf(`
endpoint "GET /x" {
  pipeline {
    http "up" {
      url = "http://127.0.0.1:1/"
    }
    respond {
      body = steps.up.body
    }
  }
}`);
  const responses = operation(doc, 'GET', '/x').responses;
  assert.deepEqual(Object.keys(responses), ['200', '500', '502', '503', '504']);
  assert.deepEqual(responses['502'], { $ref: '#/components/responses/BadGateway' });
  const shared = (doc.components as Json).responses.BadGateway;
  assert.match(shared.description, /urn:svc:error:bad-gateway/);
  assert.deepEqual(shared.content['application/problem+json'].schema, { $ref: '#/components/schemas/Problem' });
});

test('each built-in kind lists what its failures can be: redis 503/504, sql 400/503/504, starlark 504', () => {
  assert.deepEqual(statusesOf(`    redis "r" {\n      command = "GET"\n      key     = "k"\n    }`), ['200', '500', '503', '504']);
  assert.deepEqual(statusesOf(`    sql "q" {\n      connection = connection.postgres.db\n      query      = "SELECT 1"\n    }`), [
    '200',
    '400',
    '500',
    '503',
    '504',
  ]);
  assert.deepEqual(statusesOf(`    starlark "s" {\n      source = "def execute(ctx):\\n    return 1\\n"\n    }`), ['200', '500', '504']);
  // A respond alone fails only as svc's own 500.
  assert.deepEqual(statusesOf(''), ['200', '500']);
});

test('nested steps count (a parallel branch, a transaction), after_response steps do not', () => {
  assert.deepEqual(statusesOf(`    parallel {\n      http "h" {\n        url = "http://127.0.0.1:1/"\n      }\n    }`), ['200', '500', '502', '503', '504']);
  const doc = documentOf(`${CONNECTIONS}
endpoint "GET /x" {
  pipeline {
    respond {
      body = {}
    }
  }
  after_response {
    http "h" {
      url = "http://127.0.0.1:1/"
    }
  }
}`);
  assert.deepEqual(Object.keys(operation(doc, 'GET', '/x').responses), ['200', '500']);
});

/** The statuses of an operation whose pipeline runs a custom step defined with `failures`. */
function customStatuses(failures: readonly StepFailureStatus[] | undefined): string[] {
  const geocode = defineStep({ name: 'geocode', ...(failures !== undefined ? { failures } : {}), run: () => ({}) });
  const built = buildModel(
    [{ filename: 'main.hcl', source: 'endpoint "GET /x" {\n  pipeline {\n    geocode "g" {}\n    respond {\n      body = {}\n    }\n  }\n}\n' }],
    { steps: [...STEP_KINDS, customStepKind(geocode)] },
  );
  assert.ok(built.model, built.diagnostics.map((d) => d.summary).join('; '));
  const doc = JSON.parse(JSON.stringify(compileOpenApi(built.model))) as Json;
  return Object.keys(doc.paths['/x'].get.responses);
}

test('a custom step kind shows the failure statuses it was defined with, its time-out when it gives none', () => {
  assert.deepEqual(customStatuses([503]), ['200', '500', '503']);
  assert.deepEqual(customStatuses([504, 400, 504]), ['200', '400', '500', '504']);
  assert.deepEqual(customStatuses([]), ['200', '500']);
  assert.deepEqual(customStatuses(undefined), ['200', '500', '504']);
});

test('defineStep refuses a failure status svc cannot give a failed step', () => {
  const run = () => ({});
  for (const failures of [[500], [404], [502], ['503'], 503]) {
    assert.throws(
      () => defineStep({ name: 'geocode', failures: failures as unknown as StepFailureStatus[], run }),
      (e: unknown) => e instanceof TypeError && /defineStep "geocode": failures lists statuses among 400, 503, 504/.test(e.message),
    );
  }
});
