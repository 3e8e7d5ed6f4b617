/**
 * Loading a manifest directory from disk: discover, read, build. File names in diagnostics are the
 * directory as given joined with each file's relative path (`examples/shop/api.hcl`), so a user can
 * click through from a terminal.
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Diagnostic } from '../diag/index.js';
import { discoverManifestFiles, readRegularFile, type StepSpecBase } from '../manifest/index.js';
import { buildModel, type SourceFile } from './build.js';
import type { AnyStepKindModel } from './step-kind.js';
import type { ServiceModel } from './types.js';

export interface LoadResult<S extends StepSpecBase = StepSpecBase> {
  readonly model?: ServiceModel<S>;
  readonly diagnostics: Diagnostic[];
  readonly sources: Map<string, string>;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

export interface LoadOptions {
  /** The step kinds (src/steps `STEP_KINDS`), as for `buildModel`. */
  readonly steps: readonly AnyStepKindModel[];
}

export async function loadManifest<S extends StepSpecBase = StepSpecBase>(path: string, options: LoadOptions): Promise<LoadResult<S>> {
  // `-c api.hcl` (as hclapi's `serve -c file.hcl`): that one file, in its directory.
  const one = await singleFile(path);
  const dir = one ? dirname(path) : path;
  const problem = one ? undefined : await checkDir(dir);
  if (problem) return { diagnostics: [{ severity: 'error', summary: 'Cannot read manifest directory', detail: problem }], sources: new Map() };
  let names: string[];
  try {
    names = one ? [basename(path)] : await discoverManifestFiles(dir);
  } catch (e) {
    // A subdirectory that cannot be listed (permissions, a vanished entry): the manifest's problem, not ours.
    const where = (e as NodeJS.ErrnoException).path ?? dir;
    return { diagnostics: [{ severity: 'error', summary: 'Cannot read manifest directory', detail: `${where}: ${ioProblem(e)}` }], sources: new Map() };
  }
  if (names.length === 0) {
    return {
      diagnostics: [{ severity: 'error', summary: 'No manifest files', detail: `No *.hcl file was found under ${dir}.` }],
      sources: new Map(),
    };
  }
  const read = await Promise.all(
    names.map(async (rel): Promise<SourceFile | Diagnostic> => {
      const filename = join(dir, rel);
      // Regular files only, and bounded: a *.hcl symlink to /dev/zero or a growing file would
      // otherwise be read until memory runs out (src/manifest/read.ts).
      const read = await readRegularFile(filename);
      if (!read.ok) {
        if (read.kind === 'too-large') return { severity: 'error', summary: 'File too large', detail: `${filename} ${read.problem}.` };
        // A dangling symlink, a directory or a FIFO named *.hcl, a file without read permission.
        return { severity: 'error', summary: 'Cannot read manifest file', detail: `${filename}${read.kind === 'io' ? ':' : ''} ${read.problem}.` };
      }
      try {
        return { filename, source: UTF8.decode(read.bytes) };
      } catch {
        // Decoded leniently, each bad byte would be one "Invalid character" error after another.
        return { severity: 'error', summary: 'Invalid file encoding', detail: `${filename} is not UTF-8 text; manifest files are UTF-8.` };
      }
    }),
  );
  const files = read.filter((f): f is SourceFile => 'source' in f);
  const unreadable = read.filter((f): f is Diagnostic => !('source' in f));
  if (unreadable.length > 0) {
    // Everything that could be read is still checked, but no model is built from part of a manifest.
    const built = buildModel<S>(files, { dir, readFiles: true, steps: options.steps });
    return { diagnostics: [...unreadable, ...built.diagnostics], sources: built.sources };
  }
  return buildModel<S>(files, { dir, readFiles: true, steps: options.steps });
}

/** Whether `path` names a manifest file rather than a directory. */
async function singleFile(path: string): Promise<boolean> {
  if (!path.endsWith('.hcl')) return false;
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

async function checkDir(dir: string): Promise<string | undefined> {
  try {
    const s = await stat(dir);
    return s.isDirectory() ? undefined : `${dir} is not a directory.`;
  } catch (e) {
    return `${dir}: ${ioProblem(e)}`;
  }
}

function ioProblem(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return `${err.code ?? err.message ?? String(e)}.`;
}
