/**
 * The collection a served process runs once idle (src/cli/idle-garbage.ts): it is a full (major)
 * collection that gives the young generation back, and the `gc` function it borrows is not left
 * exposed to realms made afterwards; when the loop was idle, it drops the compiled code of what is
 * not running.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { test } from 'node:test';
import { getHeapSpaceStatistics } from 'node:v8';
import { pathToFileURL } from 'node:url';
import { runInNewContext } from 'node:vm';
import { collectGarbage, collectGarbageWhenIdle } from '../../src/cli/idle-garbage.js';
import { ROOT } from '../paths.js';

test('collectGarbage runs a major collection and leaves no gc in later realms', async () => {
  const majors: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors.push(entry);
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    collectGarbage();
    // gc entries are delivered asynchronously: poll for the one this call made.
    for (let turn = 0; majors.length === 0 && turn < 1000; turn++) await new Promise((resolve) => setImmediate(resolve));
    assert.ok(majors.length >= 1, 'no major collection was observed');
  } finally {
    observer.disconnect();
  }
  assert.equal(runInNewContext('typeof gc'), 'undefined');
  assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined');
});

const V8_MAJOR = Number(process.versions.v8.split('.')[0]);

test('on V8 12 and later (Node.js 22) it gives the young generation back however fast the process was allocating', {
  skip: V8_MAJOR < 12 && 'V8 11 (Node.js 20) has no "last resort" collection in gc(): a second collection, one window later, does it',
}, () => {
  let kept: unknown[] = [];
  for (let i = 0; i < 500_000; i++) {
    kept.push({ i });
    if (kept.length > 1000) kept = [];
  }
  collectGarbage();
  const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!;
  assert.ok(young.space_size <= 1024 * 1024, `the young generation is still ${young.space_size} bytes (${process.versions.v8})`);
});

/**
 * A child process that compiles and runs one large function, then runs the collection `mode` names;
 * says how much of V8's bytecode and its metadata (getHeapCodeStatistics) was left, as a share of
 * what there was after a plain collection.
 */
function codeLeft(mode: 'now' | 'idle' | 'busy'): number {
  const program = `
    import { getHeapCodeStatistics } from 'node:v8';
    import { collectGarbage, collectGarbageWhenIdle } from ${JSON.stringify(pathToFileURL(join(ROOT, 'src/cli/idle-garbage.ts')).href)};
    const body = Array.from({ length: 20000 }, (_, i) => 's += a * ' + i + ' + (a ^ ' + i + ');').join('\\n');
    new Function('a', 'let s = 0;\\n' + body + '\\nreturn s;')(1);
    const code = () => getHeapCodeStatistics().bytecode_and_metadata_size;
    collectGarbage();
    const before = code();
    const report = () => process.stdout.write(String(code() / before));
    const mode = ${JSON.stringify(mode)};
    if (mode === 'now') {
      collectGarbage({ flushCode: true });
      report();
    } else {
      collectGarbageWhenIdle({ delayMs: 500 });
      setTimeout(report, 800);
      // busy: the loop turns, but is never idle for long, until after the collection
      const until = Date.now() + 700;
      const spin = () => { const end = Date.now() + 20; while (Date.now() < end); if (Date.now() < until) setImmediate(spin); };
      if (mode === 'busy') spin();
    }`;
  return Number(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], { cwd: ROOT, encoding: 'utf8' }));
}

test('collectGarbage({ flushCode: true }) drops the compiled code of functions that are not running', () => {
  const left = codeLeft('now');
  assert.ok(left < 0.5, `${(left * 100).toFixed(0)} % of the bytecode is left`);
});

test('once idle, the collection drops the code the boot ran; a server busy by then keeps it', () => {
  const idle = codeLeft('idle');
  assert.ok(idle < 0.5, `an idle process kept ${(idle * 100).toFixed(0)} % of its bytecode`);
  const busy = codeLeft('busy');
  assert.ok(busy > 0.8, `a busy process kept ${(busy * 100).toFixed(0)} % of its bytecode`);
});

test('an idle server whose heap is beyond the limit gets the plain collection only; within it, the code-dropping one', async () => {
  const asked = async (flushHeapLimitBytes: number): Promise<boolean> => {
    const runs: boolean[] = [];
    collectGarbageWhenIdle({ delayMs: 500, flushHeapLimitBytes, collect: ({ flushCode }) => runs.push(flushCode) });
    while (runs.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    return runs[0]!;
  };
  assert.equal(await asked(1), false, 'a heap beyond the limit had its code dropped');
  assert.equal(await asked(Number.MAX_SAFE_INTEGER), true, 'an idle heap within the limit kept its code');
});
