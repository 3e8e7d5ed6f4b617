/**
 * The tests that start `svc serve` as users do (bin/svc.js runs dist/) need the build. `npm test`
 * builds before the tests; a test file run on its own from the sources builds here, only when dist/ is
 * missing or older than the sources. The build may report type errors in code under construction
 * elsewhere and still emit: what matters is that the entry point exists.
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
}

/**
 * The bundled command (dist/bundle/svc.js, scripts/bundle.ts), as new as dist/src: bin/svc.js runs
 * dist/src instead of a stale bundle, so a test of the bundle makes it when the build did not (a
 * build stops before bundling when tsc reports type errors, which code under construction may have).
 */
export function ensureBundled(): void {
  ensureBuilt();
  const bundle = join(root, 'dist/bundle/svc.js');
  const current = (): boolean => existsSync(bundle) && statSync(bundle).mtimeMs >= statSync(join(root, 'dist/src/cli/main.js')).mtimeMs;
  if (!current()) execFileSync(process.execPath, ['--import', 'tsx', 'scripts/bundle.ts'], { cwd: root, stdio: 'pipe' });
  assert.ok(current(), 'scripts/bundle.ts produced dist/bundle/svc.js, newer than dist/src');
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
