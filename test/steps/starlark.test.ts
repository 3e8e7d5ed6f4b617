import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StarlarkStepSpec } from '../../src/steps/index.js';
import type { EndpointResult, FailureResult, PendingResult } from '../../src/steps/index.js';
import { SLICE_STEPS } from '../../src/steps/starlark/slice.js';
import { compileEndpoint, statusOf, ctx, expr, pipeline, RANGE, respond, settled } from './helpers.js';

function starlark(source: string, extra: Partial<StarlarkStepSpec> = {}): StarlarkStepSpec {
  return {
    kind: 'starlark',
    name: 'script',
    source,
    sourceName: 'script.star',
    range: RANGE,
    blockPath: ['endpoint "GET /t"', 'pipeline', 'starlark "script"'],
    ...extra,
  };
}

/** The endpoint's answer: at once when the script finished within its slice, else from the pool. */
async function settle(out: EndpointResult | PendingResult): Promise<EndpointResult> {
  return out.kind === 'pending' ? await settled(out) : out;
}

const TRANSFORM = `
def execute(ctx):
    body = ctx["request"]["body"]
    out = [body["prefix"] + ":" + t.strip().lower() for t in body["tags"] if t.strip()]
    return {"count": len(out), "tags": out, "key": ctx["request"]["headers"]["X-Key"], "id": ctx["request_id"]}
`;

test('execute(ctx) runs (within its slice, on the event loop) and its value is steps.<name>.result', async () => {
  const { endpoint, diagnostics } = compileEndpoint(pipeline([starlark(TRANSFORM), respond({ body: expr('steps.script.result') })]));
  assert.deepEqual(diagnostics, []);
  const out = await settle(endpoint!.run(ctx({ body: { prefix: 'p', tags: [' A ', '', 'b'] }, headers: { 'x-key': 'k1' } }, 'rid')));
  assert.equal(out.kind, 'response');
  assert.deepEqual(out.kind === 'response' && out.body, { count: 2, tags: ['p:a', 'p:b'], key: 'k1', id: 'rid' });
});

test('a Starlark error at run time is a 500 failure naming the step', async () => {
  const { endpoint } = compileEndpoint(pipeline([starlark('def execute(ctx):\n    return 1 // 0\n'), respond({})]));
  const out = await settle(endpoint!.run(ctx()));
  assert.equal(out.kind, 'failure');
  assert.equal(out.kind === 'failure' && statusOf(out), 500);
  assert.equal(out.kind === 'failure' && out.step, 'script');
});

test('running out of time is a 504 failure', async () => {
  const { endpoint } = compileEndpoint(
    pipeline([starlark('def execute(ctx):\n    n = 0\n    while True:\n        n += 1\n', { timeoutMs: 20, maxSteps: 1e12 }), respond({})]),
  );
  const out = await settle(endpoint!.run(ctx()));
  assert.equal(out.kind === 'failure' && statusOf(out), 504);
});

test('compile errors are boot diagnostics at the manifest line of an inline program', () => {
  const manifest =
    'endpoint "GET /t" {\n  pipeline {\n    starlark "s" {\n      source = <<-EOT\n        def execute(ctx):\n            return undefined_name\n      EOT\n    }\n  }\n}\n';
  const at = manifest.indexOf('<<-EOT');
  const sourceRange = { filename: 'api.hcl', start: { line: 4, column: 16, byte: at }, end: { line: 7, column: 10, byte: at + 80 } };
  const spec = starlark('def execute(ctx):\n    return undefined_name\n', { sourceName: 'api.hcl', sourceRange });
  const model = { sources: new Map([['api.hcl', manifest]]), server: { requestTimeoutMs: 30_000 }, connections: new Map() } as never;
  const { endpoint, diagnostics } = compileEndpoint(pipeline([spec, respond({})]), model);
  assert.equal(endpoint, undefined);
  assert.equal(diagnostics.length, 1);
  assert.match(diagnostics[0]!.summary, /undefined_name/);
  assert.equal(diagnostics[0]!.subject!.filename, 'api.hcl');
  assert.equal(diagnostics[0]!.subject!.start.line, 6);
  assert.equal(diagnostics[0]!.subject!.start.column, manifest.split('\n')[5]!.indexOf('undefined_name') + 1);
});

test('a program without execute() is refused at boot', () => {
  const { endpoint, diagnostics } = compileEndpoint(pipeline([starlark('x = 1\n'), respond({})]));
  assert.equal(endpoint, undefined);
  assert.match(diagnostics[0]!.summary, /no execute\(ctx\) function/);
});

test('parallel branches run and all their outputs are visible afterwards', async () => {
  const a = starlark('def execute(ctx):\n    return 1\n', { name: 'a' });
  const b = starlark('def execute(ctx):\n    return 2\n', { name: 'b' });
  const parallel = { kind: 'parallel' as const, range: RANGE, blockPath: ['endpoint "GET /t"', 'pipeline', 'parallel'], steps: [a, b] };
  const { endpoint, graph, diagnostics } = compileEndpoint(pipeline([parallel, respond({ body: expr('{ sum = steps.a.result + steps.b.result }') })]));
  assert.deepEqual(diagnostics, []);
  assert.equal(graph!.plan[0]!.type, 'parallel');
  assert.deepEqual(graph!.plan[1]!.reads, ['a', 'b']);
  const out = await settle(endpoint!.run(ctx()));
  assert.deepEqual(out.kind === 'response' && out.body, { sum: 3 });
});

test('a result JSON cannot hold (NaN, Infinity, a cycle) is a 500 naming the step; __proto__ stays data', async () => {
  for (const body of ['float("nan")', '[float("inf")]', '{"a": -float("inf")}']) {
    const { endpoint } = compileEndpoint(pipeline([starlark(`def execute(ctx):\n    return ${body}\n`), respond({ body: expr('steps.script.result') })]));
    const out = await settle(endpoint!.run(ctx()));
    assert.equal(out.kind === 'failure' && statusOf(out), 500, body);
    assert.equal(out.kind === 'failure' && out.step, 'script');
  }
  const cyclic = compileEndpoint(pipeline([starlark('def execute(ctx):\n    x = []\n    x.append(x)\n    return x\n'), respond({})]));
  const failed = await settle(cyclic.endpoint!.run(ctx()));
  assert.equal(failed.kind === 'failure' && statusOf(failed), 500);
  const { endpoint } = compileEndpoint(
    pipeline([starlark('def execute(ctx):\n    return {"__proto__": {"x": 1}}\n'), respond({ body: expr('steps.script.result') })]),
  );
  const out = await settle(endpoint!.run(ctx()));
  assert.equal(out.kind === 'response' && JSON.stringify(out.body), '{"__proto__":{"x":1}}');
});

test('request headers arrive case-insensitively, multi-valued as lists', async () => {
  const src = 'def execute(ctx):\n    h = ctx["request"]["headers"]\n    return [h["X-A"], h.get("x-b"), "X-C" in h]\n';
  const { endpoint } = compileEndpoint(pipeline([starlark(src), respond({ body: expr('steps.script.result') })]));
  const out = await settle(endpoint!.run(ctx({ headers: { 'x-a': '1', 'x-b': ['p', 'q'], 'x-c': undefined } })));
  assert.deepEqual(out.kind === 'response' && out.body, ['1', ['p', 'q'], false]);
});

test('a script that needs more than its slice runs again from the start on the pool, with the same result', async () => {
  const source = `
def execute(ctx):
    total = 0
    for i in range(${SLICE_STEPS * 3}):
        total += i
    return {"total": total, "id": ctx.request_id}
`;
  const quick = compileEndpoint(pipeline([starlark('def execute(ctx):\n    return {"id": ctx.request_id}\n'), respond({ body: expr('steps.script.result') })]));
  const quickOut = quick.endpoint!.run(ctx());
  assert.notEqual(quickOut.kind, 'pending', 'a script within its slice answers synchronously');
  const long = compileEndpoint(pipeline([starlark(source), respond({ body: expr('steps.script.result') })]));
  const out = long.endpoint!.run(ctx());
  assert.equal(out.kind, 'pending', 'past its slice, a script goes to a worker');
  const n = SLICE_STEPS * 3;
  assert.deepEqual(((await settle(out)) as { body: unknown }).body, { total: (n * (n - 1)) / 2, id: 'r-1' });
});

test('a step budget within the slice fails on the event loop as it would on the pool (500, too many steps)', async () => {
  const spin = 'def execute(ctx):\n    for i in range(1000000):\n        pass\n    return 1\n';
  const c = compileEndpoint(pipeline([starlark(spin, { maxSteps: 100 }), respond({ body: expr('steps.script.result') })]));
  const out = c.endpoint!.run(ctx());
  assert.notEqual(out.kind, 'pending');
  const failure = (await settle(out)) as FailureResult;
  assert.equal(failure.kind, 'failure');
  assert.equal(statusOf(failure), 500);
  assert.match(String((failure.error as Error).message), /too many steps \(limit 100\)/);
});
