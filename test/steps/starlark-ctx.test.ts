// The `ctx` of a starlark step, through the worker pool: every part by attribute and by index, the
// lazily converted values a script mutates, and what is sent to the worker (only what the script's
// static reads of ctx can reach).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileModule } from '../../src/starlark/index.js';
import type { EndpointScope } from '../../src/steps/index.js';
import { contextPlan } from '../../src/steps/starlark/context.js';
import { StarlarkPool } from '../../src/steps/starlark/pool.js';

const pool = new StarlarkPool(1);

function scope(): EndpointScope {
  const row = { id: 7, tags: ['x'] };
  return {
    ctx: {
      request: {
        method: 'POST',
        path: { id: '42' },
        query: { verbose: 'true' },
        headers: { 'x-key': 'k1', 'content-type': 'application/json' },
        body: { prefix: 'p', tags: [' A ', 'b'] },
      },
      timestamp_epoch: 1_700_000_000,
      request_id: 'r-1',
      auth: { guard: 'key', type: 'api_key', principal: 'alice', claims: {} },
    },
    // two steps sharing one row object, as outputs can
    steps: { find_user: { row, rows: [row] }, audit: { row } },
  };
}

async function run(source: string, s: EndpointScope = scope()): Promise<unknown> {
  const { program, errors } = compileModule(source, 'ctx.star');
  assert.deepEqual(errors, []);
  const plan = contextPlan(program!.parameterReads('execute'));
  return pool.call(pool.register(source, 'ctx.star', 1e6, 5000), plan(s), 1e6, 5000).result;
}

test('every part of ctx by attribute, as the manifest reads it', async () => {
  const out = await run(`
def execute(ctx):
    return {
        "method": ctx.request.method,
        "id": ctx.request.path["id"],
        "verbose": ctx.request.query["verbose"],
        "key": ctx.request.headers["X-Key"],
        "tags": ctx.request.body["tags"],
        "row": ctx.steps.find_user["row"],
        "time": ctx.timestamp_epoch,
        "request_id": ctx.request_id,
        "principal": ctx.auth["principal"],
    }
`);
  assert.deepEqual(out, {
    method: 'POST',
    id: '42',
    verbose: 'true',
    key: 'k1',
    tags: [' A ', 'b'],
    row: { id: 7, tags: ['x'] },
    time: 1_700_000_000,
    request_id: 'r-1',
    principal: 'alice',
  });
});

test('every part of ctx by index, as scripts written for a dict read it', async () => {
  const out = await run(`
def execute(ctx):
    r = ctx["request"]
    return [r["method"], r["path"]["id"], r["query"]["verbose"], r["headers"]["x-key"], r["body"]["prefix"],
            ctx["steps"]["find_user"]["rows"][0]["id"], ctx["timestamp_epoch"], ctx["request_id"], ctx["auth"]["guard"]]
`);
  assert.deepEqual(out, ['POST', '42', 'true', 'k1', 'p', 7, 1_700_000_000, 'r-1', 'key']);
});

test('ctx, ctx.request and ctx.steps are structs for dir, hasattr, getattr and str; the data below are dicts', async () => {
  const out = await run(`
def execute(ctx):
    return {
        "dir": dir(ctx),
        "request": dir(ctx.request),
        "steps": dir(ctx.steps),
        "hasattr": [hasattr(ctx.steps, "audit"), hasattr(ctx.steps, "nope"), hasattr(ctx, "request")],
        "getattr": getattr(ctx.steps, "find_user")["row"]["id"],
        "types": [type(ctx), type(ctx.request), type(ctx.steps), type(ctx.request.body), type(ctx.steps.audit), type(ctx.request.headers)],
        "str": str(ctx.steps),
    }
`);
  assert.deepEqual(out, {
    dir: ['auth', 'request', 'request_id', 'steps', 'timestamp_epoch'],
    request: ['body', 'headers', 'method', 'path', 'query'],
    steps: ['audit', 'find_user'],
    hasattr: [true, false, true],
    getattr: 7,
    types: ['struct', 'struct', 'struct', 'dict', 'dict', 'dict'],
    str: 'struct(audit = {"row": {"id": 7, "tags": ["x"]}}, find_user = {"row": {"id": 7, "tags": ["x"]}, "rows": [{"id": 7, "tags": ["x"]}]})',
  });
});

test('a script mutating what it read sees its mutation; the request and other steps are never altered', async () => {
  const s = scope();
  const before = structuredClone({ request: s.ctx.request, steps: s.steps });
  const out = await run(
    `
def execute(ctx):
    ctx.request.body["tags"].append("c")
    row = ctx.steps.find_user["row"]
    row["id"] = 8
    row["tags"].append("y")
    return {
        "body": ctx["request"]["body"]["tags"],
        "row": ctx["steps"]["find_user"]["row"],
        "audit": ctx.steps.audit["row"],
    }
`,
    s,
  );
  assert.deepEqual(out, { body: [' A ', 'b', 'c'], row: { id: 8, tags: ['x', 'y'] }, audit: { id: 7, tags: ['x'] } });
  assert.deepEqual({ request: s.ctx.request, steps: s.steps }, before);
});

test('only what the script can read is sent to the worker', () => {
  const plan = (source: string) => {
    const { program } = compileModule(source, 'ctx.star');
    return contextPlan(program!.parameterReads('execute'))(scope());
  };
  const body = plan('def execute(ctx):\n    return ctx.request.body["tags"]\n');
  assert.deepEqual(body.request, { method: undefined, path: undefined, query: undefined, headers: undefined, body: { prefix: 'p', tags: [' A ', 'b'] } });
  assert.equal(body.steps, undefined);
  assert.equal(body.auth, undefined);
  const step = plan('def execute(ctx):\n    return ctx.steps.audit["row"]\n');
  assert.equal(step.request, undefined);
  assert.deepEqual(Object.keys(step.steps!), ['find_user', 'audit']); // the names stay, for dir() and did-you-mean
  assert.equal(step.steps!.find_user, undefined);
  assert.deepEqual(step.steps!.audit, { row: { id: 7, tags: ['x'] } });
  const whole = plan('def execute(ctx):\n    return helper(ctx)\n\ndef helper(c):\n    return c.steps\n');
  assert.deepEqual(whole.steps, scope().steps);
  assert.deepEqual(whole.request, scope().ctx.request);
});

test('a misspelt step: the struct error names the steps that exist', async () => {
  await assert.rejects(run('def execute(ctx):\n    return ctx.steps.find_usr\n'), /struct has no \.find_usr attribute \(did you mean \.find_user\?\)/);
});
