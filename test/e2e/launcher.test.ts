/**
 * `svc` run as a command (bin/svc.js executed, its `#!/usr/bin/env -S ...` line read by the kernel
 * and env, as `npx svc` and a global install run it) starts Node with the memory settings docs/operations.md
 * "Memory" describes: `--max-semi-space-size=8` and `--liftoff-only` among Node's options and
 * `MALLOC_ARENA_MAX=2` in its environment, all read from /proc (Linux).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt } from './build.js';
import { ROOT } from '../paths.js';

const LINUX = process.platform === 'linux';

test("bin/svc.js run as a command serves with docs/operations.md 'Memory' settings", { skip: !LINUX && 'reads /proc' }, async () => {
  ensureBuilt();
  const child = spawn(join(ROOT, 'bin/svc.js'), ['serve', '-c', 'examples/quickstart', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    let err = '';
    await new Promise<void>((listening, reject) => {
      const timer = setTimeout(() => reject(new Error(`svc did not listen within 20 s:\n${err}`)), 20_000);
      child.stderr!.on('data', (c: Buffer) => {
        err += c.toString();
        if (/listening on http:/.test(err)) {
          clearTimeout(timer);
          listening();
        }
      });
      child.once('exit', (code) => reject(new Error(`svc exited with ${code} before listening:\n${err}`)));
    });
    // env execs node in the same process: the pid is node's.
    const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
    const environ = readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');
    assert.match(argv[0]!, /(^|\/)node$/);
    assert.equal(argv[1], '--max-semi-space-size=8');
    assert.equal(argv[2], '--liftoff-only');
    assert.match(argv[3]!, /bin\/svc\.js$/);
    assert.ok(environ.includes('MALLOC_ARENA_MAX=2'), 'MALLOC_ARENA_MAX=2 is in the environment');
  } finally {
    child.kill('SIGKILL');
  }
});
