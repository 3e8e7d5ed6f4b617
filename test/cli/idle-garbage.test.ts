/**
 * The collection a served process runs once idle (src/cli/idle-garbage.ts): it is a full (major)
 * collection, and the `gc` function it borrows is not left exposed to realms made afterwards.
 */
import assert from 'node:assert/strict';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { collectGarbage } from '../../src/cli/idle-garbage.js';

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
