/**
 * Files a manifest points at (template_file, starlark `file`): resolved against a base directory and
 * never outside the manifest directory, checked on the path as written (holds for in-memory builds)
 * and, when files are read, on the real path (a link inside may point anywhere). `..notes.star` is
 * inside. A link swapped between check and read is not guarded against: the directory is the operator's.
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

/** A file read under the rules above, or why not (a diagnostic's summary and detail). */
export type ContainedFile =
  | { readonly ok: true; readonly path: string; readonly text?: string }
  | { readonly ok: false; readonly summary: string; readonly detail: string };

/** `value` (as written) resolved against `baseDir` and read, if `files` reads, under the rules above. */
export function readContainedFile(value: string, baseDir: string, files: FileAccess): ContainedFile {
  const root = resolve(files.rootDir);
  const path = resolve(baseDir, value);
  const outside = (detail: string): ContainedFile => ({ ok: false, summary: 'File outside the manifest directory', detail });
  // `problem`: an error code (`ENOENT`) or what the file is instead (`is a named pipe, not a regular file`).
  const unreadable = (problem: string, code: boolean): ContainedFile => ({
    ok: false,
    summary: 'Cannot read file',
    detail: `"${value}" (${path})${code ? ':' : ''} ${problem}.`,
  });
  if (!isInside(root, path)) return outside(`"${value}" resolves to ${path}, outside the manifest directory ${root}.`);
  if (!files.read) return { ok: true, path };
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
  if (read.ok) return { ok: true, path, text: read.bytes.toString('utf8') };
  if (read.kind === 'too-large') return { ok: false, summary: 'File too large', detail: `"${value}" (${path}) ${read.problem}.` };
  return unreadable(read.problem, read.kind === 'io');
}

export function resolveFile(attr: Attribute, value: string, baseDir: string, files: FileAccess, scope: DecodeScope): ResolvedFile | undefined {
  const file = readContainedFile(value, baseDir, files);
  if (!file.ok) return void scope.error(file.summary, attr.expr.range, { detail: file.detail });
  return file.text === undefined ? { path: file.path } : { path: file.path, text: file.text };
}
