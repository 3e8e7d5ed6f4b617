/** The fuzz suite's oracle (oracle.ts) catches what it is there to catch, and lets the rest pass. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerDefect, type Answer } from './oracle.js';

const ok: Answer = { method: 'GET', status: 200, contentType: 'application/json', body: '{}', ms: 3 };
const problem = (status: number, body = '{"type":"urn:svc:error:x"}'): Answer => ({ ...ok, status, contentType: 'application/problem+json', body });

test('documented answers pass', () => {
  for (const a of [
    ok,
    problem(400),
    problem(404),
    problem(422),
    problem(502),
    problem(503),
    problem(504),
    { ...problem(405), method: 'HEAD', contentType: '' },
  ]) {
    assert.equal(answerDefect(a), undefined, JSON.stringify(a));
  }
  assert.equal(answerDefect({ ...ok, body: 'at x (/app/node_modules/y.js:1:2)' }), undefined, 'a 200 may serve any text');
});

test('a stall, a 500, internals, and an error that is not a problem are defects', () => {
  assert.match(answerDefect({ ...ok, ms: 60_000 })!, /took 60000 ms/);
  assert.match(answerDefect(problem(500))!, /answered 500/);
  assert.match(answerDefect(problem(400, 'TypeError: x is undefined\n    at f (/work/src/http/x.ts:1:2)'))!, /internals/);
  assert.match(answerDefect(problem(422, '{"detail":"Maximum call stack size exceeded"}'))!, /internals/);
  assert.match(answerDefect({ ...ok, status: 400, contentType: 'text/plain', body: 'Bad Request' })!, /not a problem document/);
});
