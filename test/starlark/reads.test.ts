// What a function can read of its parameter (Program.parameterReads): the parts of ctx svc sends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileModule, type Reads } from '../../src/starlark/index.js';

function reads(source: string): unknown {
  const { program, errors } = compileModule(source, 'reads.star');
  assert.deepEqual(errors, []);
  return plain(program!.parameterReads('execute'));
}

function plain(r: Reads): unknown {
  return r === 'all' ? 'all' : Object.fromEntries([...r].map(([k, v]) => [k, plain(v)]));
}

test('constant attribute and index chains name the parts read', () => {
  assert.deepEqual(reads('def execute(ctx):\n    return ctx.request.body["tags"]\n'), { request: { body: { tags: 'all' } } });
  assert.deepEqual(reads('def execute(ctx):\n    return ctx["steps"]["find_user"]["row"], (ctx.steps).other\n'), {
    steps: { find_user: { row: 'all' }, other: 'all' },
  });
  assert.deepEqual(reads('def execute(c):\n    b = c.request.body\n    return [t.strip() for t in b["tags"]] + [c.request.path.get("id")]\n'), {
    request: { body: 'all', path: { get: 'all' } },
  });
  assert.deepEqual(reads('def execute(ctx):\n    ctx.request.body["x"] = 1\n    return None\n'), { request: { body: { x: 'all' } } });
  assert.deepEqual(reads('def execute(ctx):\n    return 1\n'), {});
});

test('a part used any other way is read whole', () => {
  assert.deepEqual(reads('def execute(ctx):\n    return len(ctx.steps)\n'), { steps: 'all' });
  assert.deepEqual(reads('def execute(ctx):\n    return ctx.steps[name()]\n\ndef name():\n    return "a"\n'), { steps: 'all' });
  assert.deepEqual(reads('def execute(ctx):\n    return getattr(ctx.request, "body")\n'), { request: 'all' });
  assert.deepEqual(reads('def execute(ctx):\n    return ctx.request.body[0:1]\n'), { request: { body: 'all' } });
  assert.deepEqual(reads('def execute(ctx):\n    return ctx.request.body[ctx.request.query["k"]]\n'), { request: { body: 'all', query: { k: 'all' } } });
});

test('ctx as a whole (passed on, returned, stored, reassigned, captured and passed) reads everything', () => {
  assert.equal(reads('def execute(ctx):\n    return helper(ctx)\n\ndef helper(c):\n    return c.request\n'), 'all');
  assert.equal(reads('def execute(ctx):\n    return ctx\n'), 'all');
  assert.equal(reads('def execute(ctx):\n    return dir(ctx)\n'), 'all');
  assert.equal(reads('def execute(ctx):\n    x = [ctx]\n    return x[0].request\n'), 'all');
  assert.equal(reads('def execute(ctx):\n    ctx = 1\n    return ctx\n'), 'all');
  assert.equal(reads('def execute(ctx):\n    f = lambda: ctx\n    return f().steps\n'), 'all');
  assert.equal(reads('def execute(ctx, extra = None):\n    return getattr(ctx, "steps")\n'), 'all');
});

test('nested functions: captured reads count, a parameter of the same name is another variable', () => {
  assert.deepEqual(reads('def execute(ctx):\n    def inner():\n        return ctx.steps.a\n    return inner()\n'), { steps: { a: 'all' } });
  assert.deepEqual(reads('def execute(ctx):\n    f = lambda ctx: ctx\n    return f(ctx.request.body)\n'), { request: { body: 'all' } });
  assert.deepEqual(reads('def execute(ctx):\n    return [ctx.steps.a for x in [1]]\n'), { steps: { a: 'all' } });
});

test('everything when execute is not one plain def, or the parameter is *args', () => {
  assert.equal(reads('def execute(*args):\n    return args[0].request\n'), 'all');
  assert.equal(reads('def f(ctx):\n    return ctx.request\n\nexecute = f\n'), 'all');
  assert.equal(reads('execute = lambda ctx: ctx.request\n'), 'all');
});
