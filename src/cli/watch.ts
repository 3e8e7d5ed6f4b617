/**
 * `svc serve --watch`: a change to the manifest's files asks for a reload, once per burst (an editor's
 * save is often several events). What counts: a `*.hcl`, `*.star` or `*.sql` under the manifest
 * directory, a file the manifest reads, anything in a migrations directory. Hidden files, anything
 * under a `pglite:<dir>` and other files (a log beside the manifest) are ignored on purpose: they
 * would reload the service forever.
 */
import { type Dirent, type FSWatcher, readdirSync, statSync, watch } from 'node:fs';
import { basename, extname, isAbsolute, join, relative, resolve } from 'node:path';
import type { ServiceModel } from '../model/index.js';
import type { StepSpec } from '../steps/index.js';

/** Quiet time after the last event before the reload is asked for. */
const DEBOUNCE_MS = 150;
const MANIFEST_EXTENSIONS = new Set(['.hcl', '.star', '.sql']);

export interface ManifestWatcher {
  /** Follows the files of the manifest now served (after a successful reload). */
  follow(model: ServiceModel<StepSpec>): void;
  close(): void;
}

export function watchManifest(dir: string, model: ServiceModel<StepSpec>, onChange: () => void): ManifestWatcher {
  // `-c FILE.hcl`: the file's directory, the model's, which holds what it reads.
  const root = resolve(dir.endsWith('.hcl') ? model.dir : dir);
  let inputs = inputsOf(model);
  let timer: NodeJS.Timeout | undefined;
  const changed = (path: string): void => {
    if (!isRelevant(path, inputs)) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, DEBOUNCE_MS);
  };
  // One watcher per directory, not `recursive: true`: Node 20's recursive watching on Linux follows
  // files by inode and goes deaf to a file an editor saved by renaming a new one over it.
  const watchers = new Map<string, FSWatcher>();
  const watchTree = (dir: string): void => {
    for (const sub of directoriesUnder(dir, inputs)) {
      if (watchers.has(sub)) continue;
      try {
        const watcher = watch(sub, (_event, name) => {
          // Without a name (some platforms, some events) the change cannot be placed: reload anyway.
          const path = name === null ? join(sub, MANIFEST_MARKER) : join(sub, name.toString());
          changed(path);
          // A directory created (or moved in) is watched too; one that went away is forgotten.
          if (name !== null && isDirectory(path)) watchTree(path);
          if (!isDirectory(sub)) forget(sub);
        });
        // A watched directory that disappears is not worth crashing for; the next reload says what is missing.
        watcher.on('error', () => forget(sub));
        watchers.set(sub, watcher);
      } catch {
        // Gone already, or a migrations directory that does not exist yet: nothing to watch there.
      }
    }
  };
  const forget = (dir: string): void => {
    watchers.get(dir)?.close();
    watchers.delete(dir);
  };
  const watchAll = (): void => {
    watchTree(root);
    for (const migrations of inputs.migrations) if (!isInside(root, migrations)) watchTree(migrations);
  };
  watchAll();
  return {
    follow(next) {
      inputs = inputsOf(next);
      watchAll();
    },
    close() {
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

/** A name that is always relevant, for events that come without one. */
const MANIFEST_MARKER = 'manifest.hcl';

interface Inputs {
  /** Files the manifest reads besides its `*.hcl` (templates, Starlark files), absolute. */
  readonly files: ReadonlySet<string>;
  readonly migrations: readonly string[];
  /** Directories of `pglite:<dir>` connections: written by the database, never manifest input. */
  readonly databases: readonly string[];
}

function isRelevant(path: string, inputs: Inputs): boolean {
  if (inputs.databases.some((d) => isInside(d, path))) return false;
  if (inputs.files.has(path) || inputs.migrations.some((d) => isInside(d, path))) return true;
  return !isIgnoredName(basename(path)) && MANIFEST_EXTENSIONS.has(extname(path));
}

/** Hidden entries and installed packages: never manifest input, never watched. */
function isIgnoredName(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/** `dir` and the directories below it worth watching (not hidden, not a database's). */
function directoriesUnder(dir: string, inputs: Inputs): string[] {
  if (inputs.databases.some((d) => isInside(d, dir))) return [];
  const out = [dir];
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (entry.isDirectory() && !isIgnoredName(entry.name)) out.push(...directoriesUnder(join(dir, entry.name), inputs));
  }
  return out;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function inputsOf(model: ServiceModel<StepSpec>): Inputs {
  const files = new Set<string>();
  for (const endpoint of model.endpoints) collectFiles(endpoint, files, new Set());
  const migrations: string[] = [];
  const databases: string[] = [];
  for (const c of model.connections.values()) {
    if (c.migrations !== undefined) migrations.push(resolve(c.migrations));
    if (c.url.startsWith('pglite:') && c.url.length > 'pglite:'.length) databases.push(resolve(c.baseDir, c.url.slice('pglite:'.length)));
  }
  return { files, migrations, databases };
}

/**
 * Every `file` a step or a documentation endpoint reads (starlark `file`, `template_file`), found by
 * walking the endpoint's plain data: step kinds nest (parallel, transaction, catch) and each keeps
 * its file under that name, so the walk needs no list of kinds to stay complete.
 */
function collectFiles(value: unknown, into: Set<string>, seen: Set<unknown>): void {
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    for (const item of value) collectFiles(item, into, seen);
    return;
  }
  if (value instanceof Map) {
    for (const item of value.values()) collectFiles(item, into, seen);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key === 'range' || key.endsWith('Range')) continue;
    if (key === 'file' && typeof item === 'string') into.add(resolve(item));
    else collectFiles(item, into, seen);
  }
}

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
