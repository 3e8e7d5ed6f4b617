/**
 * What only the memory store has to prove (the behaviour suite covers what it shares with Redis):
 * expired keys that nobody reads are swept, a bounded batch per sweep, and the sweeper's timer never
 * keeps a process alive.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyspace } from '../../src/connectors/redis/memory/keyspace.js';
import { COMPILED, LOADER, moduleUrl, ROOT as root } from '../paths.js';

test('expired keys nobody reads are swept, at most 1000 per sweep, resuming where the last one stopped', () => {
  let now = 0;
  const keys = new Keyspace(() => now);
  try {
    for (let i = 0; i < 2500; i++) keys.set(`k${i}`, 'v', 10);
    keys.set('forever', 'v');
    keys.set('later', 'v', 1000);
    now = 20;
    keys.sweep();
    assert.equal(keys.size, 2500 + 2 - 1000);
    keys.sweep();
    keys.sweep();
    assert.equal(keys.size, 2, 'only the live keys are left');
    assert.equal(keys.get('forever'), 'v');
    assert.equal(keys.get('later'), 'v');
    now = 1000;
    keys.sweep();
    keys.sweep();
    assert.equal(keys.size, 1);
  } finally {
    keys.stop();
  }
});

test('a key given a time-to-live by EXPIRE and then SET without one is never swept', () => {
  let now = 0;
  const keys = new Keyspace(() => now);
  try {
    keys.set('k', 'a');
    assert.equal(keys.expire('k', 10), true);
    keys.set('k', 'b');
    now = 100;
    keys.sweep();
    keys.sweep();
    assert.equal(keys.get('k'), 'b');
    assert.equal(keys.expire('missing', 10), false);
    assert.equal(keys.expire('k', 0), true, 'a non-positive time-to-live deletes, as PEXPIRE does');
    assert.equal(keys.get('k'), undefined);
  } finally {
    keys.stop();
  }
});

test('an open memory store with keys that expire does not keep the process alive', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-memory-'));
  try {
    const script = join(dir, COMPILED ? 'idle.mjs' : 'idle.mts');
    const connectors = moduleUrl('src/connectors/index.ts');
    await writeFile(
      script,
      `import { createConnectors } from ${JSON.stringify(connectors)};
const position = { line: 1, column: 1, byte: 0 };
const connection = { kind: 'redis', name: 'm', url: 'memory:', baseDir: '.', range: { filename: 't', start: position, end: position } };
const set = createConnectors({ connections: new Map([['redis.m', connection]]) });
await set.openAll();
await set.handle('redis', 'm').set('k', 'v', { ttlMs: 60_000 });
await set.handle('redis', 'm').subscribe('c', () => {});
console.log('open, never closed');
`,
    );
    const started = Date.now();
    const out = await new Promise<string>((done, fail) =>
      execFile(process.execPath, [...LOADER, script], { cwd: root, timeout: 20_000 }, (error, stdout) => (error ? fail(error) : done(stdout))),
    );
    assert.equal(out.trim(), 'open, never closed');
    // Start-up (tsx's, from the sources) is most of it; a timer holding the process would take the full 20 s and fail.
    assert.ok(Date.now() - started < 15_000);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
