/**
 * Files a manifest points at (template_file, starlark `file`): resolved against a base directory,
 * never allowed to escape the manifest directory, and read at boot when the build reads files.
 *
 * Containment is checked twice: on the path as written (`../x`, an absolute path), which needs no
 * disk and so holds for in-memory builds too, then, when files are read, on the real path, with
 * every symlink resolved: a link inside the directory may point anywhere. A name that merely
 * starts with `..` (`..notes.star`) is inside. The check and the read are separate system calls; the
 * directory is the operator's, so a link swapped between the two is not a threat this guards against.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Attribute } from '../hcl/index.js';
import { readRegularFileSync } from './read.js';
import type { DecodeScope } from './scope.js';

export interface FileAccess {
  /** The manifest directory: no referenced file may lie outside it. */
  readonly rootDir: string;
  /** False for in-memory builds (tests): paths are checked, nothing is read. */
  readonly read: boolean;
}

export interface ResolvedFile {
  readonly path: string;
  /** The contents, when files are read. */
  readonly text?: string;
}

/** Whether `path` is `root` or lies under it (both absolute, normalised). */
function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

export function resolveFile(attr: Attribute, value: string, baseDir: string, files: FileAccess, scope: DecodeScope): ResolvedFile | undefined {
  const root = resolve(files.rootDir);
  const path = resolve(baseDir, value);
  const outside = (detail: string): undefined => void scope.error('File outside the manifest directory', attr.expr.range, { detail });
  // `problem`: an error code (`ENOENT`) or what the file is instead (`is a named pipe, not a regular file`).
  const unreadable = (problem: string, code: boolean): undefined =>
    void scope.error('Cannot read file', attr.expr.range, { detail: `"${value}" (${path})${code ? ':' : ''} ${problem}.` });
  if (!isInside(root, path)) return outside(`"${value}" resolves to ${path}, outside the manifest directory ${root}.`);
  if (!files.read) return { path };
  let real: string;
  try {
    real = realpathSync(path);
    if (!isInside(realpathSync(root), real)) {
      return outside(`"${value}" (${path}) leads through a symbolic link to ${real}, outside the manifest directory ${root}.`);
    }
  } catch (e) {
    return unreadable((e as NodeJS.ErrnoException).code ?? (e as Error).message, true);
  }
  const read = readRegularFileSync(real);
  if (read.ok) return { path, text: read.bytes.toString('utf8') };
  if (read.kind === 'too-large') return void scope.error('File too large', attr.expr.range, { detail: `"${value}" (${path}) ${read.problem}.` });
  return unreadable(read.problem, read.kind === 'io');
}
