/**
 * The size budget is the evaluation's, handed down explicitly (src/expr budget.ts): the budget a
 * request's `ctx` carries is charged with what that request's expressions build and nothing else,
 * whichever other evaluations run in between, and an evaluation without one draws from its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXPR_BUDGET, newExprBudget } from '../../src/expr/index.js';
import { compiled } from './helpers.js';

/** A request's `ctx`, its budget where the HTTP adapter puts it. */
function requestCtx(id: string) {
  const budget = newExprBudget();
  return { ctx: { request_id: id, [EXPR_BUDGET]: budget }, budget };
}

test("each request's budget is charged with what its own expressions build, interleaved or not", () => {
  const greeting = compiled('"hello ${ctx.request_id}"');
  const words = compiled('[for w in split(" ", ctx.request_id) : upper(w)]');
  const a = requestCtx('a b c');
  const b = requestCtx('dd');
  const full = newExprBudget();

  assert.equal(greeting.evaluate({ ctx: a.ctx }), 'hello a b c');
  const afterOne = { ...a.budget };
  assert.ok(afterOne.chars < full.chars, 'the template was charged to its request');
  assert.deepEqual(words.evaluate({ ctx: b.ctx }), ['DD']);
  // b's evaluation in between left a's budget as it was, and drew from b's.
  assert.deepEqual(a.budget, afterOne);
  assert.ok(b.budget.items < full.items && b.budget.chars < full.chars);
  assert.deepEqual(words.evaluate({ ctx: a.ctx }), ['A', 'B', 'C']);
  assert.ok(a.budget.items < afterOne.items, 'the loop was charged to its request');

  // Without a budget on ctx (a stream item, a constant): a fresh one, nobody's request charged.
  const before = { a: { ...a.budget }, b: { ...b.budget } };
  assert.equal(greeting.evaluate({ ctx: { request_id: 'x' } }), 'hello x');
  assert.deepEqual({ a: a.budget, b: b.budget }, before);
});

test('a request whose budget ran out fails there; another request is not affected', () => {
  const repeated = compiled('join("", [for i in ctx.items : ctx.text])');
  const items = [1, 2, 3, 4];
  const spent = { ctx: { items, text: 'x'.repeat(1000), [EXPR_BUDGET]: { chars: 3000, items: 100 } } };
  assert.throws(() => repeated.evaluate(spent), /Expression result too large/);
  const other = { ctx: { items, text: 'x'.repeat(1000), [EXPR_BUDGET]: newExprBudget() } };
  assert.equal((repeated.evaluate(other) as string).length, 4000);
});
