/**
 * Where the svc package itself is on disk: the root that holds its package.json, found from this
 * file whether it runs from src/ (sources) or dist/src/ (the build). Files made at build time
 * (vendor/) are found from it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The svc package's root directory. */
export function packageRoot(): string {
  root ??= findRoot();
  return root;
}

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'svc') return dir;
    } catch {
      // Not here: one directory up.
    }
    dir = dirname(dir);
  }
  throw new Error(`svc's package.json was not found above ${fileURLToPath(import.meta.url)}`);
}
