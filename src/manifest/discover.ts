/**
 * Which files make a manifest (DECISIONS.md §1): every `*.hcl` under the directory, recursively,
 * in sorted order (by relative path, code-point order, so the result does not depend on the file
 * system); directories whose name starts with `.` are skipped (.git, .cache, editor folders).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Paths relative to `dir`, with `/` separators, sorted. */
export async function discoverManifestFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(join(dir, rel), { withFileTypes: true });
    for (const e of entries) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!e.name.startsWith('.')) await walk(path);
      } else if ((e.isFile() || e.isSymbolicLink()) && e.name.endsWith('.hcl')) out.push(path);
    }
  };
  await walk('');
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
