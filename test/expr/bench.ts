/**
 * Evaluation cost of compiled expressions (not a test: prints ns per evaluation).
 *     node --import tsx test/expr/bench.ts
 */
import { parseExpression } from '../../src/hcl/index.js';
import { compileExpression } from '../../src/expr/index.js';

const vars = {
  ctx: {
    request: {
      method: 'GET',
      path: '/users/7',
      query: { limit: 10, q: 'abc' },
      headers: { 'x-api-key': 'k' },
      body: { name: 'Ann', items: [{ id: 1 }, { id: 2 }, { id: 3 }] },
    },
    timestamp_epoch: 1700000000,
  },
  steps: { find: { row: { id: 7, name: 'x' }, rows: [{ id: 7 }, { id: 8 }] } },
};

const cases = [
  'ctx.request.query.limit',
  'ctx.request.headers.x-api-key',
  '{ id = steps.find.row.id, name = ctx.request.body.name, limit = ctx.request.query.limit }',
  '{ a = 1, b = "x" }',
  '[ctx.request.method, ctx.request.path]',
  '"Hello, ${ctx.request.body.name}!"',
  'ctx.request.query.limit > 5 ? "big" : "small"',
  'ctx.request.query.limit * 2 + 1',
  'coalesce(ctx.request.query.missing, 20)',
  'upper(ctx.request.body.name)',
  'ctx.request.body.items[*].id',
  '[for i in ctx.request.body.items : i.id * 2 if i.id > 1]',
  'steps.find.rows[0].id == 7 && ctx.request.method == "GET"',
  'problem(404, "User ${ctx.request.body.name} not found")',
];

let sink: unknown;
const only = process.argv[2] !== undefined ? [cases[Number(process.argv[2])]!] : cases;
for (const src of only) {
  const { compiled } = compileExpression(parseExpression(src, 'bench.hcl').expr);
  const run = (n: number): number => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) sink = compiled.evaluate(vars);
    return Number(process.hrtime.bigint() - t0) / n;
  };
  run(200_000); // warm up
  const samples = [run(1_000_000), run(1_000_000), run(1_000_000)].sort((a, b) => a - b);
  console.log(`${samples[1]!.toFixed(1).padStart(7)} ns  ${src}`);
}
void sink;
