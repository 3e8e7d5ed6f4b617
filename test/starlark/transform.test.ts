import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileModule, callFunction, fromJS, toJS } from '../../src/starlark/index.js';

const TRANSFORM = `
def execute(ctx):
    body = ctx["request"]["body"]
    prefix = body.get("prefix", "item")
    out = []
    for t in body.get("tags", []):
        t = t.strip().lower()
        if t:
            out.append(prefix + ":" + t)
    return {"count": len(out), "tags": out}
`;

test('the transform script of SPEC §4.4', () => {
  const { program, errors } = compileModule(TRANSFORM, 'transform.star');
  assert.deepEqual(errors, []);
  const mod = program!.init();
  const run = (body: unknown) => toJS(callFunction(mod, 'execute', [fromJS({ request: { body } })], { maxSteps: 1_000_000, timeoutMs: 1000 }));
  assert.deepEqual(run({ prefix: 'tag', tags: ['  Alpha', 'BETA ', '', '  '] }), { count: 2, tags: ['tag:alpha', 'tag:beta'] });
  assert.deepEqual(run({ tags: ['X'] }), { count: 1, tags: ['item:x'] });
  assert.deepEqual(run({}), { count: 0, tags: [] });
  assert.deepEqual(run({ tags: ['Ωmega'] }), { count: 1, tags: ['item:ωmega'] });
  assert.throws(() => run({ tags: [1] }), /string has no \.strip field or method|int has no \.strip field or method/);
});
