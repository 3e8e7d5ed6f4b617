/** Did-you-mean on references whose target exists but failed to decode. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildServiceModel } from '../../src/steps/index.js';

test('a misspelled step name is matched against every declared step, those that failed to decode included', () => {
  const source = `endpoint "GET /u" {
  pipeline {
    sql "user" {
      connection = connection.postgres.nowhere
      query      = "select 1"
    }
    respond {
      body = steps.usr.row
    }
  }
}
`;
  const r = buildServiceModel([{ filename: 'f.hcl', source }]);
  const d = r.diagnostics.find((x) => x.summary === 'Reference to undeclared step');
  assert.ok(d, r.diagnostics.map((x) => x.summary).join(', '));
  assert.equal(d.suggestion, 'steps.user');
  assert.equal(d.subject?.start.line, 8);
});
