// Issue 15, class 1 (the step's half): Starlark steps run on worker threads. A script at its limits
// leaves the event loop free, a worker that overruns its budget is killed and replaced, a cancelled
// call stops its script, and what crosses the thread boundary keeps the limits of the interpreter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { StarlarkError } from '../../src/starlark/index.js';
import { StarlarkPool } from '../../src/steps/starlark/pool.js';
import type { CallContext } from '../../src/steps/starlark/protocol.js';
import { sourceDir } from '../paths.js';

const ctx = (steps: unknown = {}): CallContext => ({
  request: { method: 'GET', path: {}, query: {}, headers: { 'x-a': '1' }, body: null },
  timestamp_epoch: 0,
  request_id: 'r-1',
  auth: null,
  steps: steps as Record<string, unknown>,
});

const SPIN = 'def execute(ctx):\n    n = 0\n    while True:\n        n += 1\n';
const ECHO = 'def execute(ctx):\n    return {"a": ctx["request"]["headers"]["X-A"], "steps": ctx["steps"]}\n';

/** The 99th percentile of the delays of a 5 ms timer on this thread while `during` runs. */
async function eventLoopLag<T>(during: Promise<T>): Promise<{ lag: number; outcome: PromiseSettledResult<T> }> {
  const lags: number[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    lags.push(now - last - 5);
    last = now;
  }, 5);
  const [outcome] = await Promise.allSettled([during]);
  clearInterval(timer);
  lags.sort((a, b) => a - b);
  return { lag: lags[Math.floor(lags.length * 0.99)] ?? 0, outcome: outcome! };
}

/**
 * Runs a timing measurement, and once more when it misses: on a loaded machine the scheduler can
 * stall any one run, a miss of the pool's own shows twice.
 *
 * The bounds below are liveness bounds (a script that overran its limit unchecked, or blocked the
 * event loop, misses them by far), not the performance goals: those (p99 lag under 50 ms, within
 * 10 % of the limit) are measured by `npm run bench:starlark-loop` and quoted in its README, since a
 * test that times a shared CI machine fails for reasons of its own.
 */
async function twice(measure: () => Promise<string | undefined>): Promise<void> {
  const miss = await measure();
  if (miss === undefined) return;
  const again = await measure();
  assert.equal(again, undefined, `${miss}; again: ${again}`);
}

/** The default pool's size: a CPU is left to the event loop. */
const WORKERS = Math.max(1, availableParallelism() - 1);

test('pool: a script runs on a worker and its result crosses back exactly', async () => {
  const pool = new StarlarkPool(1);
  const program = pool.register(ECHO, 'echo.star', 1000, 1000);
  const result = await pool.call(program, ctx({ big: 2n ** 70n, bytes: new Uint8Array([1, 2]) }), 1000, 1000).result;
  assert.deepEqual(result, { a: '1', steps: { big: 2n ** 70n, bytes: new Uint8Array([1, 2]) } });
});

test('pool: scripts at their time limit leave the event loop free; one queued behind them times out at its limit too', async () => {
  const pool = new StarlarkPool();
  assert.equal(pool.size, WORKERS);
  const program = pool.register(SPIN, 'spin.star', 1e12, 1000);
  await Promise.allSettled(Array.from({ length: WORKERS }, () => pool.call(program, ctx(), 1e12, 10).result)); // every worker started
  await twice(async () => {
    const started = performance.now();
    const calls = Array.from({ length: WORKERS + 1 }, () =>
      pool.call(program, ctx(), 1e12, 1000).result.catch((e: unknown) => {
        assert.ok(e instanceof StarlarkError && e.kind === 'timeout', String(e));
        return [performance.now() - started, e.msg] as const;
      }),
    );
    const { lag, outcome } = await eventLoopLag(Promise.all(calls));
    assert.equal(outcome.status, 'fulfilled');
    const answers = (outcome as PromiseFulfilledResult<(readonly [number, string])[]>).value;
    // the last one waited: it times out in the queue, or (a race at the 1000th ms) gets a worker with no time left
    assert.match(answers.at(-1)![1], /timeout after 1000 ms/);
    const times = answers.map(([took]) => took);
    if (times.some((took) => took < 990 || took > 3000)) return `scripts at their 1000 ms limit answered after ${times.map((t) => t.toFixed(0)).join(', ')} ms`;
    if (lag >= 500) return `the event loop's timer p99 lag was ${lag.toFixed(0)} ms`;
    return undefined;
  });
});

test('pool: busy built-ins stop at their limit, the event loop free meanwhile', async () => {
  const pool = new StarlarkPool(1);
  const source = `${readFileSync(join(sourceDir(import.meta.url), 'fixtures/busy-builtins/sort-long-strings.star'), 'utf8')}\ndef execute(ctx):\n    return f()\n`;
  const program = pool.register(source, 'sort.star', 1e12, 60_000);
  await pool.call(pool.register('def execute(ctx):\n    return 1\n', 'one.star', 100, 100), ctx(), 100, 100).result; // started
  await Promise.allSettled([pool.call(program, ctx(), 1e12, 1).result]); // loaded (its top level builds 200 MB)
  await twice(async () => {
    const started = performance.now();
    const { lag, outcome } = await eventLoopLag(pool.call(program, ctx(), 1e12, 1000).result);
    const took = performance.now() - started;
    assert.equal(outcome.status, 'rejected');
    assert.equal((outcome as PromiseRejectedResult).reason.kind, 'timeout');
    if (took > 3000) return `answered after ${took.toFixed(0)} ms`;
    if (lag >= 500) return `the event loop's timer p99 lag was ${lag.toFixed(0)} ms`;
    return undefined;
  });
});

test('pool: a worker stuck in one long native operation is killed at its limit and replaced', async () => {
  const pool = new StarlarkPool(1);
  // one replace over 16 MB splits and joins sixteen million pieces: far longer than 50 ms, in one call
  const stuck = pool.register('TEXT = "a" * 16000000\ndef execute(ctx):\n    return len(TEXT.replace("a", "bc"))\n', 'stuck.star', 1e12, 10_000);
  const echo = pool.register(ECHO, 'echo.star', 1000, 1000);
  await pool.call(echo, ctx(), 1000, 1000).result;
  await pool.call(stuck, ctx(), 1e12, 10_000).result.catch(() => {}); // loaded: the kill below is not the first call's
  // On a loaded machine the worker may start the call more than 50 ms after it was sent (it is still
  // collecting the last call's garbage): the call is then turned away before it runs, the worker is
  // not stuck, and the call is tried again.
  let started = 0;
  let error: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    started = performance.now();
    error = await pool.call(stuck, ctx(), 1e12, 50).result.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof StarlarkError && /waiting for a worker/.test(error.msg))) break;
  }
  const took = performance.now() - started;
  assert.ok(error instanceof StarlarkError && error.kind === 'timeout', String(error));
  assert.match(error.msg, /timeout after 50 ms \(the worker was stopped\)/);
  // killed at 50 * 1.05 + 10 ms; the replace alone takes several hundred
  assert.ok(took < 2000, `answered after ${took.toFixed(0)} ms`);
  assert.equal(pool.started, 1);
  // The replacement's start-up (which runs every program's top level, the 16 MB text included) is on
  // this call's budget: a generous one, since a loaded machine may take over a second for it.
  assert.deepEqual(await pool.call(echo, ctx(7), 1000, 30_000).result, { a: '1', steps: 7 });
  assert.equal(pool.started, 2, 'a new worker replaced the killed one');
});

test('pool: a worker that runs out of memory stops alone: its call fails, a new worker takes the next', async () => {
  const pool = new StarlarkPool(1, 64);
  const echo = pool.register(ECHO, 'echo.star', 1000, 1000);
  await pool.call(echo, ctx(), 1000, 1000).result;
  // 200 lists of 100,000 elements: within the script's limits (160 MB built in bulk), beyond a 64 MB heap
  const hog = pool.register('def execute(ctx):\n    return len([[i] * 100000 for i in range(200)])\n', 'hog.star', 1e6, 10_000);
  await assert.rejects(pool.call(hog, ctx(), 1e6, 10_000).result, (e: unknown) => {
    assert.ok(e instanceof StarlarkError && e.kind === 'size', String(e));
    assert.match(e.msg, /out of memory: the script's worker passed its 64 MB heap/);
    return true;
  });
  assert.deepEqual(await pool.call(echo, ctx(3), 1000, 1000).result, { a: '1', steps: 3 });
  assert.equal(pool.started, 2);
});

test('pool: a cancelled call stops its script, and the worker serves the next one', async () => {
  const pool = new StarlarkPool(1);
  const spin = pool.register(SPIN, 'spin.star', 1e12, 1000);
  const echo = pool.register(ECHO, 'echo.star', 1000, 1000);
  await pool.call(echo, ctx(), 1000, 1000).result;
  const call = pool.call(spin, ctx(), 1e12, 60_000);
  setTimeout(() => call.cancel(new Error('client went away')), 50);
  await assert.rejects(call.result, /client went away/);
  assert.deepEqual(await pool.call(echo, ctx(1), 1000, 1000).result, { a: '1', steps: 1 });
  assert.equal(pool.started, 1, 'the interrupt flag stopped the script: no kill, no new worker');
});

test('pool: calls beyond the workers queue, and a call cancelled in the queue never runs', async () => {
  const pool = new StarlarkPool(2);
  const program = pool.register('def execute(ctx):\n    return ctx["steps"] * 2\n', 'double.star', 1000, 1000);
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => pool.call(program, ctx(i), 1000, 1000).result));
  assert.deepEqual(
    results,
    Array.from({ length: 20 }, (_, i) => i * 2),
  );
  const spin = pool.register(SPIN, 'spin.star', 1e12, 1000);
  const busy = [pool.call(spin, ctx(), 1e12, 300), pool.call(spin, ctx(), 1e12, 300)];
  const queued = pool.call(program, ctx(1), 1000, 1000);
  queued.cancel(new Error('gave up'));
  await assert.rejects(queued.result, /gave up/);
  await Promise.allSettled(busy.map((b) => b.result));
});

test('pool: the result is converted in the worker under the text budget, shared values once per reference', async () => {
  const pool = new StarlarkPool(1);
  const program = pool.register('def execute(ctx):\n    s = "x" * (16 * 1024 * 1024 - 16)\n    return [s] * 16\n', 'shared.star', 1e6, 10_000);
  await assert.rejects(pool.call(program, ctx(), 1e6, 10_000).result, (e: unknown) => {
    assert.ok(e instanceof StarlarkError && e.kind === 'size', String(e));
    assert.match(e.msg, /bytes of text \(a shared value counts once per reference\)/);
    return true;
  });
  const nan = pool.register('def execute(ctx):\n    return [float("nan")]\n', 'nan.star', 1000, 1000);
  await assert.rejects(pool.call(nan, ctx(), 1000, 1000).result, (e: unknown) => e instanceof StarlarkError && e.kind === 'convert');
});

test('pool: a ctx a thread cannot receive is a conversion error, the backtrace of a failure survives', async () => {
  const pool = new StarlarkPool(1);
  const echo = pool.register(ECHO, 'echo.star', 1000, 1000);
  await assert.rejects(pool.call(echo, ctx({ f: () => 1 }), 1000, 1000).result, (e: unknown) => {
    assert.ok(e instanceof StarlarkError && e.kind === 'convert', String(e));
    return true;
  });
  const failing = pool.register('def g(x):\n    return 1 // x\ndef execute(ctx):\n    return g(0)\n', 'fail.star', 1000, 1000);
  await assert.rejects(pool.call(failing, ctx(), 1000, 1000).result, (e: unknown) => {
    assert.ok(e instanceof StarlarkError && e.kind === 'eval');
    assert.match(e.backtrace(), /fail\.star:4:13: in execute\n {2}fail\.star:2:14: in g\nError: floored division by zero/);
    return true;
  });
});

test('pool: a quick call whose answer waits behind a longer one is not killed at its own kill time', async () => {
  const pool = new StarlarkPool(1);
  // ctx.steps is the number of iterations: 0 is quick, thirty million take far longer than 115 ms
  const program = pool.register('def execute(ctx):\n    n = 0\n    for i in range(ctx["steps"]):\n        n += 1\n    return n\n', 'loop.star', 1e12, 30_000);
  for (let i = 0; i < 5; i++) await pool.call(program, ctx(0), 1e12, 30_000).result; // started, and known to be quick
  // one turn of the event loop: both go in one message; the first answer waits behind the second call
  const started = performance.now();
  const quick = pool.call(program, ctx(0), 1e12, 100).result;
  const long = pool.call(program, ctx(30_000_000), 1e12, 30_000).result;
  assert.equal(await quick, 0, 'answered, not killed at 100 ms * 1.05 + 10');
  assert.ok(performance.now() - started > 115, 'the quick answer waited past its kill time');
  assert.equal(await long, 30_000_000);
  assert.equal(pool.started, 1, 'no worker was killed');
});
