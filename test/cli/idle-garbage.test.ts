/**
 * The collection a served process runs once idle (src/cli/idle-garbage.ts): it is a full (major)
 * collection that gives the young generation back, and the `gc` function it borrows is not left
 * exposed to realms made afterwards.
 */
import assert from 'node:assert/strict';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { test } from 'node:test';
import { getHeapSpaceStatistics } from 'node:v8';
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
