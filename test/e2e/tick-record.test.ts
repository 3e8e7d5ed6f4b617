/**
 * `svc serve` (bin/svc.js, as users run it) keeps Node's `process.nextTick` on V8's fast path
 * (src/cli/tick-record.ts): after boot and a few thousand requests, the object literal that builds
 * each tick's record must still have monomorphic feedback for its computed keys. Without the record
 * held from the start, boot leaves them megamorphic: with the import removed from main.ts this test
 * failed 5 times in 5 on Node 20.
 *
 * V8's `%DebugPrint` shows the feedback, so the process runs with `--allow-natives-syntax` and a
 * probe that prints `process.nextTick` on SIGUSR2 (its only `%DebugPrint`, so every literal slot in
 * the output is nextTick's). A Node whose V8 prints feedback differently (no such slot in the
 * output) skips the test rather than pass it unchecked.
 */
import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ensureBuilt } from './build.js';
import { ROOT as root } from '../paths.js';

// V8 prints through C's buffered stdout, here a file, flushed when the process exits: read after.
const PROBE = `process.on('SIGUSR2', () => {
  eval('%DebugPrint(process.nextTick)');
  process.stderr.write('probe printed\\n');
});`;

ensureBuilt();

test('svc serve: the literal of nextTick records stays monomorphic after boot and load', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-tick-'));
  const probe = join(dir, 'probe.mjs');
  await writeFile(probe, PROBE);
  // The quickstart as bench/health serves it: no access log, so nothing else goes to stdout.
  const manifest = join(dir, 'manifest');
  await cp(join(root, 'examples/quickstart'), manifest, { recursive: true });
  const main = join(manifest, 'main.hcl');
  await writeFile(main, (await readFile(main, 'utf8')).replace(/^server \{/m, 'server {\n  access_log = false'));
  const printedTo = join(dir, 'stdout.txt');
  const stdout = openSync(printedTo, 'w');
  const child = spawn(process.execPath, ['--allow-natives-syntax', '--import', probe, 'bin/svc.js', 'serve', '-c', manifest, '--port', '0'], {
    cwd: root,
    stdio: ['ignore', stdout, 'pipe'],
  });
  closeSync(stdout);
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  try {
    const url = await until(
      () => /listening on (http:\/\/\S+)/.exec(err)?.[1],
      30_000,
      () => `svc serve did not start:\n${err}`,
    );
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    for (let batch = 0; batch < 50; batch++) {
      const statuses = await Promise.all(Array.from({ length: 40 }, () => status(`${url}/api/v1/health`, agent)));
      assert.deepEqual(new Set(statuses), new Set([200]));
    }
    agent.destroy();
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGUSR2');
    await until(
      () => (err.includes('probe printed') ? true : undefined),
      10_000,
      () => `the probe did not run:\n${err}`,
    );
    child.kill('SIGTERM');
    await exited;
    const printed = await readFile(printedTo, 'utf8');
    const slots = printed.split('\n').filter((line) => /slot #\d+ DefineKeyedOwnPropertyInLiteral/.test(line));
    if (!/SharedFunctionInfo nextTick/.test(printed) || slots.length === 0) {
      t.skip(`this Node (${process.version}) prints no literal feedback for nextTick`);
      return;
    }
    assert.deepEqual(
      slots.filter((line) => /MEGAMORPHIC/.test(line)),
      [],
      `nextTick's record literal went megamorphic:\n${slots.join('\n')}`,
    );
  } finally {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
});

function status(url: string, agent: Agent): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode!));
    });
    req.on('error', fail);
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer within 15 s: GET ${url}`)));
    req.end();
  });
}

/** Polls `read` until it gives a value; rejects with `why()` after `ms`. */
async function until<T>(read: () => T | undefined, ms: number, why: () => string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((r) => setTimeout(r, 20));
  }
}
