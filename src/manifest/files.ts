/**
 * Files a manifest points at (template_file, starlark `file`): resolved against a base directory,
 * never allowed to escape the manifest directory, and read at boot when the build reads files.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Attribute } from '../hcl/index.js';
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

export function resolveFile(attr: Attribute, value: string, baseDir: string, files: FileAccess, scope: DecodeScope): ResolvedFile | undefined {
  const path = resolve(baseDir, value);
  const rel = relative(resolve(files.rootDir), path);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    scope.error('File outside the manifest directory', attr.expr.range, {
      detail: `"${value}" resolves to ${path}, outside the manifest directory ${resolve(files.rootDir)}.`,
    });
    return undefined;
  }
  if (!files.read) return { path };
  try {
    return { path, text: readFileSync(path, 'utf8') };
  } catch (e) {
    scope.error('Cannot read file', attr.expr.range, { detail: `"${value}" (${path}): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.` });
    return undefined;
  }
}
