import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { type Deadline, Deadlines } from '../../src/http/deadlines.js';

/** A run that records when (ms after `t0`) its time ran out. */
function run(name: string, log: string[]): Deadline {
  return {
    deadlineAt: Number.NaN,
    newer: undefined,
    older: undefined,
    timeOut() {
      log.push(name);
    },
  };
}

test('runs time out oldest first; a removed run never does', async () => {
  const deadlines = new Deadlines(30);
  const log: string[] = [];
  const [a, b, c] = [run('a', log), run('b', log), run('c', log)];
  deadlines.add(a);
  deadlines.add(b);
  deadlines.add(c);
  deadlines.remove(b);
  deadlines.remove(b); // twice: nothing more
  await sleep(80);
  assert.deepEqual(log, ['a', 'c']);
  assert.ok(Number.isNaN(a.deadlineAt) && Number.isNaN(c.deadlineAt), 'out of the queue once timed out');
  deadlines.remove(a); // after its time-out: nothing
});

test('a run added later times out its own time later (the timer is armed again for it)', async () => {
  const deadlines = new Deadlines(40);
  const log: string[] = [];
  const t0 = performance.now();
  const at: Record<string, number> = {};
  const timed = (name: string): Deadline => ({
    ...run(name, log),
    timeOut() {
      log.push(name);
      at[name] = performance.now() - t0;
    },
  });
  deadlines.add(timed('first'));
  await sleep(25);
  // Measured, not assumed: on a loaded machine the sleep can overrun, and the first's timer can
  // fire late enough that both time out in one go. What must hold is that each waited its own time
  // from when it was added.
  const secondAddedAt = performance.now() - t0;
  deadlines.add(timed('second'));
  await sleep(90);
  assert.deepEqual(log, ['first', 'second']);
  assert.ok(at.first! >= 39, `the first waited its time: ${JSON.stringify(at)}`);
  assert.ok(at.second! >= secondAddedAt + 39, `the second waited its own time from ${secondAddedAt}: ${JSON.stringify(at)}`);
});

test('an emptied queue holds no timer: the process is free to exit', async () => {
  const deadlines = new Deadlines(60_000);
  const log: string[] = [];
  const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const runs = [run('x', log), run('y', log)];
  for (const r of runs) deadlines.add(r);
  assert.equal(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length, before + 1, 'one timer for both');
  for (const r of runs) deadlines.remove(r);
  assert.equal(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length, before);
  assert.deepEqual(log, []);
});
