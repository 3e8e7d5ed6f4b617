/** A manifest written to a temporary directory, and a client of a served one. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempManifest {
  readonly dir: string;
  readonly file: string;
  remove(): void;
}

export function tempManifest(hcl: string): TempManifest {
  const dir = mkdtempSync(join(tmpdir(), 'svc-embedding-'));
  const file = join(dir, 'main.hcl');
  writeFileSync(file, hcl);
  return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Resolves once `check` holds, polling every few milliseconds; rejects after `tries` polls. */
export async function until(check: () => boolean, what: string, tries = 2000): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`never happened: ${what}`);
}
