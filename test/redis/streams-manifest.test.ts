/**
 * How the stream commands of a `redis` step are declared: what each one needs and refuses, reported
 * at boot with the line of the attribute (or of the block, for a missing one).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildServiceModel } from '../../src/steps/index.js';

/** A manifest whose only step is a redis step with `body` (its first line is line 6). */
function errorsOf(body: string): string[] {
  const source = `connection "redis" "bus" {\n  url = "memory:"\n}\nendpoint "POST /x" {\n  pipeline {\n    redis "s" {\n      connection = connection.redis.bus\n${body}\n    }\n    respond {\n      body = {}\n    }\n  }\n}\n`;
  const built = buildServiceModel([{ filename: 'api.hcl', source }], { dir: '.' });
  return built.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.subject?.start.line}: ${d.summary}: ${d.detail ?? ''}`);
}

test('the stream commands are accepted with the attributes they take', () => {
  assert.deepEqual(errorsOf('command = "XADD"\nkey = "k"\nfields = { a = 1 }\nid = "*"\nmaxlen = 1000'), []);
  assert.deepEqual(errorsOf('command = "xadd"\nkey = "k"\nfields = { a = 1 }\nminid = "1700000000000-0"'), []);
  assert.deepEqual(errorsOf('command = "XRANGE"\nkey = "k"\nstart = "-"\nend = "+"\ncount = 10'), []);
  assert.deepEqual(errorsOf('command = "XREVRANGE"\nkey = "k"'), []);
  assert.deepEqual(errorsOf('op = "xread"\nkey = "k"'), []);
});

test('a missing, foreign, conflicting or ill-typed attribute is an error with its line', () => {
  assert.deepEqual(errorsOf('command = "XADD"\nkey = "k"'), ['6: Missing required argument: XADD needs "fields".']);
  assert.deepEqual(errorsOf('command = "XREAD"\nkey = "k"\ncount = 5'), ['10: Unsupported argument: "count" is not used by XREAD.']);
  assert.deepEqual(errorsOf('command = "XRANGE"\nkey = "k"\nfields = { a = 1 }'), ['10: Unsupported argument: "fields" is not used by XRANGE.']);
  assert.deepEqual(errorsOf('command = "XADD"\nkey = "k"\nfields = { a = 1 }\nmaxlen = 10\nminid = "5-0"'), [
    '12: Conflicting arguments: XADD keeps entries by count (maxlen) or by id (minid), not both.',
  ]);
  const [zero] = errorsOf('command = "XADD"\nkey = "k"\nfields = { a = 1 }\nmaxlen = 0');
  assert.match(zero!, /^11: /);
  const [list] = errorsOf('command = "XADD"\nkey = "k"\nfields = [1, 2]');
  assert.match(list!, /^10: /);
});
