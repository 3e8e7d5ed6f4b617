// Issue 35: `svc graph` labels a respond with the status it really answers with: the status of a
// problem() body when `status` is omitted, each status a conditional can give, "computed" when it
// depends on request data. The labels are checked against the statuses the same manifest answers
// with when served, and the endpoint's statuses known at boot follow the same rule.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseExpression } from '../../src/hcl/index.js';
import { buildServiceModel } from '../../src/steps/index.js';
import { bodyStatuses } from '../../src/expr/index.js';
import { svc } from '../cli/helpers.js';
import { serveManifest } from '../http/helpers.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// Each respond answers for one range of ids: `/items/<id>` picks the one under test.
const MANIFEST = `
endpoint "GET /items/{id}" {
  request {
    path {
      field "id" {
        type = "integer"
      }
    }
  }
  pipeline {
    respond {
      condition = ctx.request.path.id >= 100
      body      = problem(404, "Not Found", "no such item")
    }
    respond {
      condition = ctx.request.path.id >= 50
      body      = ctx.request.path.id >= 75 ? (problem({ status = 410, title = "Gone" })) : { moved = true }
    }
    respond {
      condition = ctx.request.path.id >= 40
      body      = problem(ctx.request.path.id + 400, "computed")
    }
    respond {
      condition = ctx.request.path.id >= 30
      status    = ctx.request.path.id >= 35 ? 409 : 422
    }
    respond {
      condition = ctx.request.path.id >= 20
      status    = ctx.request.path.id + 400
    }
    respond {
      condition = ctx.request.path.id >= 10
      status    = 201
      body      = problem(404, "status wins over the problem's")
    }
    respond {
      body = { id = ctx.request.path.id }
    }
  }
}
`;

/** The respond nodes' labels of `svc graph`, in order, their lines joined by " / ". */
async function respondLabels(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-respond-statuses-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'api.hcl'), MANIFEST);
  const r = await svc(['graph', '-c', dir]);
  assert.equal(r.code, 0, r.stderr);
  return [...r.stdout.matchAll(/label="respond\\n([^"]*)"/g)].map((m) => m[1]!.split('\\n').join(' / '));
}

test('svc graph labels each respond with the statuses it answers with', async () => {
  assert.deepEqual(await respondLabels(), [
    'status 404 / (conditional)',
    'status 200 or 410 / (conditional)',
    'status computed / (conditional)',
    'status 409 or 422 / (conditional)',
    'status computed / (conditional)',
    'status 201 / (conditional)',
    'status 200',
  ]);
});

test('the labelled statuses are the statuses served', async () => {
  const served = await serveManifest(MANIFEST);
  try {
    const status = async (id: number): Promise<number> => (await served.app.inject({ method: 'GET', url: `/items/${id}` })).statusCode;
    assert.equal(await status(100), 404);
    assert.deepEqual([await status(75), await status(50)], [410, 200]);
    assert.deepEqual([await status(41), await status(42)], [441, 442]);
    assert.deepEqual([await status(35), await status(30)], [409, 422]);
    assert.deepEqual([await status(20), await status(21)], [420, 421]);
    assert.equal(await status(10), 201);
    assert.equal(await status(1), 200);
  } finally {
    await served.close();
  }
});

test("the endpoint's statuses known at boot include a problem body's and a conditional status's", () => {
  const { model, diagnostics } = buildServiceModel([{ filename: 'api.hcl', source: MANIFEST }]);
  assert.deepEqual(diagnostics, []);
  const endpoint = model!.endpoints[0]!;
  assert.equal(endpoint.kind, 'pipeline');
  assert.deepEqual(endpoint.kind === 'pipeline' && endpoint.statuses, [200, 201, 404, 409, 410, 422]);
});

test('a problem passed through anything else is computed; an interim problem status answers 200; a refused one is no status', () => {
  const statuses = (body: string): unknown => bodyStatuses(parseExpression(body, 'api.hcl').expr);
  assert.deepEqual(statuses('{ ok = true }'), [200]);
  // A value built around a problem is a new value: the problem is only a member of it.
  assert.deepEqual(statuses('{ error = problem(500, "x") }'), [200]);
  assert.deepEqual(statuses('[problem(404, "x")]'), [200]);
  assert.equal(statuses('coalesce(null, problem(404, "x"))'), 'computed');
  assert.equal(statuses('[for x in ctx.request.query.ids : problem(404, x)][0]'), 'computed');
  assert.deepEqual(statuses('problem(102, "early")'), [200]);
  assert.equal(statuses('problem(700, "no such status")'), 'computed');
  assert.equal(statuses('problem(list...)'), 'computed');
  assert.deepEqual(statuses('ctx.request.path.id > 1 ? problem(409, "a") : ctx.request.path.id > 0 ? problem(409, "b") : null'), [200, 409]);
});
