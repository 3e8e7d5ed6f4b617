/**
 * Where the tests run from. `npm test` runs them as the build compiled them (`dist/test/...`, plain
 * JavaScript: no loader to start in every test process and every child it spawns); a test file can
 * also be run from its source, `node --import tsx --test test/...`. The repository's files, a test's
 * fixtures and a child process running one of the tree's modules are found the same way in both.
 */
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Whether the tests run compiled (from dist/), rather than from their TypeScript sources. */
export const COMPILED = import.meta.url.endsWith('.js');

/** The repository's root directory. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), COMPILED ? '../..' : '..');

/**
 * The directory of a test module's source (give it `import.meta.url`): where its fixtures are,
 * under test/, also when the module runs from dist/test/.
 */
export function sourceDir(moduleUrl: string): string {
  const dir = dirname(fileURLToPath(moduleUrl));
  return COMPILED ? join(ROOT, relative(join(ROOT, 'dist'), dir)) : dir;
}

/** The `node` options that load a module of the tree in a child process: tsx when running from sources. */
export const LOADER: readonly string[] = COMPILED ? [] : ['--import', 'tsx'];

/**
 * The file that runs the tree's module `source`, given as its source path from the root
 * (`src/cli/main.ts`): the compiled JavaScript when the tests run compiled. Start it with `LOADER`.
 */
function modulePath(source: string): string {
  return COMPILED ? join(ROOT, 'dist', source.replace(/\.ts$/, '.js')) : join(ROOT, source);
}

/** `modulePath` as a URL, for `import()` in code given to `node -e`. */
export function moduleUrl(source: string): string {
  return pathToFileURL(modulePath(source)).href;
}
