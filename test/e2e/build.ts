/**
 * The tests that start `svc serve` as users do (bin/svc.js runs dist/bundle, else dist/src) need the
 * build. `npm test` builds before the tests; a test file run on its own from the sources builds here,
 * only when dist/ is missing or older than the sources. The build may report type errors in code
 * under construction elsewhere and still emit: what matters is that the entry point exists.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT as root } from '../paths.js';

export function ensureBuilt(): void {
  const marker = join(root, 'dist/src/cli/main.js');
  const stale = !existsSync(marker) || Math.max(newestSource(join(root, 'src')), newestSource(join(root, 'graph'))) > statSync(marker).mtimeMs;
  if (stale) {
    try {
      execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'pipe' });
    } catch {
      // Checked just below.
    }
  }
  assert.ok(existsSync(marker), 'npm run build produced dist/src/cli/main.js');
  bundle();
}

/**
 * The bundled command (dist/bundle/svc.js, scripts/bundle.ts), as new as dist/src: bin/svc.js runs
 * dist/src instead of a stale bundle, so the bundle is made here when the build did not make it (a
 * build stops before bundling when tsc reports type errors, which code under construction may have).
 * `ensureBuilt` tries it, so that the tests run the command as users do; the tests of the bundle
 * itself need it.
 */
export function ensureBundled(): void {
  ensureBuilt();
  assert.ok(bundleCurrent(), 'scripts/bundle.ts produced dist/bundle/svc.js, newer than dist/src');
}

function bundleCurrent(): boolean {
  const bundle = join(root, 'dist/bundle/svc.js');
  return existsSync(bundle) && statSync(bundle).mtimeMs >= statSync(join(root, 'dist/src/cli/main.js')).mtimeMs;
}

function bundle(): void {
  if (bundleCurrent()) return;
  try {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/bundle.ts'], { cwd: root, stdio: 'pipe' });
  } catch {
    // bin/svc.js runs dist/src then; ensureBundled says so.
  }
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}
