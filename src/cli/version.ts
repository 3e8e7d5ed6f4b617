/** The version printed by `svc --version`: package.json's, found from this file in src/ or dist/. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'svc' && pkg.version) return pkg.version;
    } catch {
      // Not here: one directory up.
    }
    dir = dirname(dir);
  }
  return 'unknown';
}
