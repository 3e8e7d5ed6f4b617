// Issue 15, class 1 (the interpreter's half): built-ins are charged by the work they do and the
// clock is consulted inside their loops, so a script calling them at scale stops at its time limit
// (within 10% of it in `npm run bench:starlark-loop`, which runs these fixtures too). Each fixture in fixtures/busy-builtins/ builds its data at the top level (under
// generous limits) and defines f(), a loop over one expensive built-in call that would run for
// minutes; before the fix each call was one interpreter step and f() overran its limit by seconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callFunction, compileModule, StarlarkError } from '../../src/starlark/index.js';
import { sourceDir } from '../paths.js';

const dir = join(sourceDir(import.meta.url), 'fixtures/busy-builtins');
// The default limit, as in the review. In this thread a script stops at its first clock check past the
// limit: at most one native operation later (a scan of 10 MB takes some 60 ms here, of a value at
// the 16 MiB limit more; the step pool kills a worker 5% + 10 ms past its limit). The fixtures keep
// each such operation to a few milliseconds (2 MB of text, 200,000 elements), so that even a loaded
// machine's slowdown keeps them close to the limit; before issue 15 each overran it by seconds to
// minutes, since a call was one step and the clock was read every 1024 steps.
const TIMEOUT_MS = 1000;

for (const file of readdirSync(dir).filter((f) => f.endsWith('.star'))) {
  test(`deadline: ${file} stops at its time limit`, () => {
    const { program, errors } = compileModule(readFileSync(join(dir, file), 'utf8'), file);
    assert.deepEqual(errors, []);
    const module = program!.init({ timeoutMs: 60_000, maxSteps: Infinity });
    const once = (): number => {
      const started = performance.now();
      assert.throws(
        () => callFunction(module, 'f', [], { timeoutMs: TIMEOUT_MS, maxSteps: Infinity }),
        (e: unknown) => e instanceof StarlarkError && e.kind === 'timeout',
      );
      return performance.now() - started;
    };
    // A second try when the first overran: on a loaded machine the scheduler can stall any one run,
    // an overrun of the interpreter's own shows twice. The bound is a liveness bound (unchecked,
    // these built-ins ran 8.5 s past a 1 s limit); the 10 % goal is measured by
    // `npm run bench:starlark-loop`, not asserted on a shared machine.
    const bound = TIMEOUT_MS * 1.5;
    let took = once();
    if (took > bound) took = Math.min(took, once());
    assert.ok(took <= bound, `${file}: ${took.toFixed(0)} ms for a ${TIMEOUT_MS} ms limit`);
  });
}

test('deadline: the work of built-ins is charged to the step budget too', () => {
  // a loop of 10 MB scans under a budget of 100,000 steps stops on steps: some ten calls
  const { program } = compileModule(readFileSync(join(dir, 'str-count.star'), 'utf8'), 'str-count.star');
  const module = program!.init({ timeoutMs: 60_000, maxSteps: Infinity });
  assert.throws(
    () => callFunction(module, 'f', [], { timeoutMs: 60_000, maxSteps: 100_000 }),
    (e: unknown) => e instanceof StarlarkError && e.kind === 'steps' && /too many steps \(limit 100000\)/.test(e.msg),
  );
});

test('deadline: an interrupt flag set by another thread cancels the run at its next clock check', () => {
  const { program } = compileModule('def f():\n    n = 0\n    while True:\n        n += 1\n', 'spin.star');
  const interrupt = new Int32Array(new SharedArrayBuffer(4));
  Atomics.store(interrupt, 0, 1);
  assert.throws(
    () => callFunction(program!.init(), 'f', [], { maxSteps: Infinity, timeoutMs: 60_000, interrupt }),
    (e: unknown) => e instanceof StarlarkError && e.kind === 'cancelled' && /interrupted by the host/.test(e.msg),
  );
});
