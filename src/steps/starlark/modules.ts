/**
 * `load("lib/slug.star", "slugify")` in a starlark step's program: the files it loads, and the files
 * those load, are read at boot with the manifest's file rules (inside the manifest directory, a
 * regular file, bounded size) and travel with the program to the worker threads, which never read a
 * file. A module name is a path relative to the file that loads it (an inline program: its
 * manifest file). Each module is compiled and its top level run once per program and thread; its
 * globals are frozen, so every step sharing it sees the same values.
 */
import { dirname, resolve } from 'node:path';
import { compileModule, StarlarkError, type RunOptions, type Value } from '../../starlark/index.js';

/**
 * Every module a program loads, transitively, by absolute path: its text, or why it could not be read
 * (reported when the program's top level runs its `load`, at that statement, with the reason).
 */
export type ModuleSources = Readonly<Record<string, { readonly text: string } | { readonly problem: string }>>;

/** Reads one module by absolute path under the manifest's file rules. */
export type ReadModule = (path: string) => { readonly text: string } | { readonly problem: string };

/** The modules `source` (named `sourceName`, its loads relative to `dir`) loads, transitively, read with `read`. */
export function collectModules(source: string, sourceName: string, dir: string, read: ReadModule): ModuleSources {
  const modules: Record<string, { readonly text: string } | { readonly problem: string }> = {};
  const visit = (text: string, name: string, from: string): void => {
    // A program that does not compile is reported by its compilation; it loads nothing meanwhile.
    const { program } = compileModule(text, name);
    if (!program) return;
    for (const load of program.loads()) {
      const target = resolve(from, load.module);
      if (Object.hasOwn(modules, target)) continue;
      const got = read(target);
      modules[target] = got;
      if ('text' in got) visit(got.text, target, dirname(target));
    }
  };
  visit(source, sourceName, dir);
  return modules;
}

/**
 * The `load` of a program whose loads are relative to `dir`: each module compiled and initialised
 * once (under `limits`, on the first load that names it), its globals handed to the loader.
 */
export function moduleLoader(modules: ModuleSources, dir: string, limits: RunOptions): (module: string) => Map<string, Value> {
  const done = new Map<string, Map<string, Value>>();
  const loading = new Set<string>();
  const loaderFrom =
    (from: string) =>
    (name: string): Map<string, Value> => {
      const path = resolve(from, name);
      const known = done.get(path);
      if (known !== undefined) return known;
      const module = modules[path];
      if (module === undefined) throw new Error(`${path} was not read at boot`);
      if ('problem' in module) throw new Error(module.problem);
      if (loading.has(path)) throw new Error(`cycle in load graph: ${path} loads itself, directly or not`);
      loading.add(path);
      try {
        const { program, errors } = compileModule(module.text, path);
        if (!program) throw new StarlarkError('compile', errors.map((e) => `${e.file}:${e.line}:${e.col}: ${e.message}`).join('\n'));
        const globals = program.init({ ...limits, load: loaderFrom(dirname(path)) }).globals();
        done.set(path, globals);
        return globals;
      } finally {
        loading.delete(path);
      }
    };
  return loaderFrom(dir);
}
