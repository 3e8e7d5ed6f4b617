/**
 * The HCL specsuite through our parser and evaluator (scripts/conformance-hcl.ts), read in place from
 * ../shared/conformance; skipped when that directory is absent.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT as root } from '../paths.js';

const suite = join(root, '../shared/conformance/hcl/specsuite/tests');

test('HCL specsuite passes in exact mode', { skip: existsSync(suite) ? false : 'specsuite not found' }, () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/conformance-hcl.ts', suite], { cwd: root, encoding: 'utf8' });
  const fails = r.stdout.split('\n').filter((l) => l.startsWith('FAIL') || l.startsWith('      '));
  assert.deepEqual(fails, [], r.stdout + r.stderr);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /(\d+)\/\1 passed \(100\.0%\)/);
});
