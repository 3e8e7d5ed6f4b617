// Struct-like host values (svc's ctx): attribute and index access, dir/hasattr/getattr/str, and the
// lazy conversion: only what a script reads is converted, once, and a script's mutations of what it
// read are its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callFunction, compileModule, fromJS, lazyStruct, recordStruct, StarlarkError, structFromJS, toJS, type Value } from '../../src/starlark/index.js';

function run(source: string, arg: Value): unknown {
  const { program, errors } = compileModule(source, 'host.star');
  assert.deepEqual(errors, []);
  return toJS(callFunction(program!.init(), 'execute', [arg]));
}

function runError(source: string, arg: Value): StarlarkError {
  try {
    run(source, arg);
  } catch (e) {
    if (e instanceof StarlarkError) return e;
    throw e;
  }
  throw new Error('expected a Starlark error');
}

/** A lazy struct over `source` that counts the conversions of each field. */
function counted(source: Record<string, unknown>): { value: Value; conversions: Map<string, number> } {
  const conversions = new Map<string, number>();
  const value = lazyStruct(source, (v, name) => {
    conversions.set(name, (conversions.get(name) ?? 0) + 1);
    return fromJS(v);
  });
  return { value, conversions };
}

test('fields by attribute and by index, as a struct for dir, hasattr, getattr, type and str', () => {
  const ctx = recordStruct(
    new Map<string, Value>([
      ['request', lazyStruct({ method: 'POST', body: { tags: ['a'] } })],
      ['steps', lazyStruct({ find_user: { row: { id: 7 } } })],
    ]),
  );
  const out = run(
    `
def execute(ctx):
    return {
        "attr": ctx.request.body["tags"],
        "index": ctx["request"]["body"]["tags"],
        "mixed": ctx["steps"].find_user["row"]["id"],
        "row": ctx.steps.find_user["row"],
        "dir": dir(ctx),
        "dir_request": dir(ctx.request),
        "hasattr": [hasattr(ctx, "steps"), hasattr(ctx.steps, "find_user"), hasattr(ctx.steps, "nope")],
        "getattr": getattr(ctx.request, "method"),
        "getattr_default": getattr(ctx.steps, "nope", "none"),
        "in": ["request" in ctx, "nope" in ctx.steps],
        "type": [type(ctx), type(ctx.request), type(ctx.request.body), type(ctx.steps.find_user)],
        "str": str(ctx.request),
    }
`,
    ctx,
  );
  assert.deepEqual(out, {
    attr: ['a'],
    index: ['a'],
    mixed: 7,
    row: { id: 7 },
    dir: ['request', 'steps'],
    dir_request: ['body', 'method'],
    hasattr: [true, true, false],
    getattr: 'POST',
    getattr_default: 'none',
    in: [true, false],
    type: ['struct', 'struct', 'dict', 'dict'],
    str: 'struct(body = {"tags": ["a"]}, method = "POST")',
  });
});

test('a missing field: the attribute error of a struct, a key error by index, with a did-you-mean', () => {
  const steps = () => lazyStruct({ find_user: { row: null } });
  assert.match(runError('def execute(s):\n    return s.find_usr\n', steps()).msg, /struct has no \.find_usr attribute \(did you mean \.find_user\?\)/);
  assert.match(runError('def execute(s):\n    return s["find_usr"]\n', steps()).msg, /key "find_usr" not in struct \(did you mean "find_user"\?\)/);
  assert.match(runError('def execute(s):\n    return s[0]\n', steps()).msg, /struct index: got int, want string/);
});

test('struct() itself stays as in starlark-go: not indexable', () => {
  assert.match(runError('def execute(x):\n    return x["a"]\n', structFromJS({ a: 1 })).msg, /unhandled index operation struct\[string\]/);
  assert.match(runError('def execute(x):\n    return "a" in x\n', structFromJS({ a: 1 })).msg, /unknown binary op: string in struct/);
});

test('fields cannot be assigned or added', () => {
  assert.match(runError('def execute(s):\n    s.body = 1\n', lazyStruct({ body: 1 })).msg, /can't assign to \.body field of struct/);
  assert.match(runError('def execute(s):\n    s["body"] = 1\n', lazyStruct({ body: 1 })).msg, /struct value does not support item assignment/);
});

test('only the fields a script reads are converted, each once', () => {
  const { value, conversions } = counted({ body: { a: 1 }, headers: { x: '1' }, big: Array.from({ length: 1000 }, (_, i) => i) });
  assert.deepEqual(run('def execute(r):\n    return [r.body["a"], r["body"]["a"], r.body.get("a")]\n', value), [1, 1, 1]);
  assert.deepEqual([...conversions], [['body', 1]]);
});

test('a script sees its own mutations of what it read; the JS data is never written', () => {
  const shared = { id: 1, tags: ['x'] };
  const request = { body: { tags: ['a'] } };
  const steps = { a: { row: shared }, b: { row: shared } };
  const ctx = recordStruct(
    new Map<string, Value>([
      ['request', lazyStruct(request)],
      ['steps', lazyStruct(steps)],
    ]),
  );
  const out = run(
    `
def execute(ctx):
    ctx.request.body["tags"].append("b")
    ctx["request"]["body"]["added"] = True
    row = ctx.steps.a["row"]
    row["id"] = 2
    row["tags"].append("y")
    return {
        "body": ctx.request.body,
        "a": ctx["steps"]["a"]["row"],
        "b": ctx.steps.b["row"],
    }
`,
    ctx,
  );
  assert.deepEqual(out, {
    body: { tags: ['a', 'b'], added: true },
    a: { id: 2, tags: ['x', 'y'] },
    // the other step's data, though it is the same JS object, is untouched
    b: { id: 1, tags: ['x'] },
  });
  assert.deepEqual(request, { body: { tags: ['a'] } });
  assert.deepEqual(steps, { a: { row: { id: 1, tags: ['x'] } }, b: { row: { id: 1, tags: ['x'] } } });
});

test('taken as a whole (str, ==, json.encode, returned), the struct shows the mutated values in the source order', () => {
  const { value } = counted({ first: { n: 1 }, second: { n: 2 } });
  const out = run(
    `
def execute(s):
    s.second["n"] = 20
    return {"str": str(s), "json": json.encode(s), "eq": s == s, "whole": s}
`,
    value,
  );
  assert.deepEqual(out, {
    str: 'struct(first = {"n": 1}, second = {"n": 20})',
    json: '{"first":{"n":1},"second":{"n":20}}',
    eq: true,
    whole: { first: { n: 1 }, second: { n: 20 } },
  });
});

test('a field that cannot be converted fails the read that reaches it, at the script position', () => {
  const e = runError('def execute(s):\n    x = s.ok\n    return s.bad\n', lazyStruct({ ok: 1, bad: () => 1 }));
  assert.equal(e.kind, 'convert');
  assert.match(e.msg, /cannot convert \.bad: cannot convert JS function/);
  assert.match(e.backtrace(), /host\.star:3:13: in execute/);
});

test('non-ASCII field names', () => {
  assert.deepEqual(run('def execute(s):\n    return [s["café"], dir(s), hasattr(s, "café")]\n', lazyStruct({ café: 1 })), [1, ['café'], true]);
});
