/**
 * Loading a manifest directory from disk: discover, read, build. File names in diagnostics are the
 * directory as given joined with each file's relative path (`examples/shop/api.hcl`), so a user can
 * click through from a terminal.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Diagnostic } from '../diag/diagnostic.js';
import { discoverManifestFiles } from '../manifest/discover.js';
import { buildModel, type SourceFile } from './build.js';
import type { ServiceModel } from './types.js';

export interface LoadResult {
  readonly model?: ServiceModel;
  readonly diagnostics: Diagnostic[];
  readonly sources: Map<string, string>;
}

export async function loadManifest(dir: string): Promise<LoadResult> {
  const problem = await checkDir(dir);
  if (problem) return { diagnostics: [{ severity: 'error', summary: 'Cannot read manifest directory', detail: problem }], sources: new Map() };
  const names = await discoverManifestFiles(dir);
  if (names.length === 0) {
    return {
      diagnostics: [{ severity: 'error', summary: 'No manifest files', detail: `No *.hcl file was found under ${dir}.` }],
      sources: new Map(),
    };
  }
  const files: SourceFile[] = await Promise.all(
    names.map(async (rel) => {
      const filename = join(dir, rel);
      return { filename, source: await readFile(filename, 'utf8') };
    }),
  );
  return buildModel(files, { dir, readFiles: true });
}

async function checkDir(dir: string): Promise<string | undefined> {
  try {
    const s = await stat(dir);
    return s.isDirectory() ? undefined : `${dir} is not a directory.`;
  } catch (e) {
    return `${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`;
  }
}
