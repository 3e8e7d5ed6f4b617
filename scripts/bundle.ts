/**
 * The `svc` command as one bundled ES module (dist/bundle/svc.js) instead of the ~600 files of
 * dist/src: loading them was about 45 % of the quickstart's boot (Node's module loader, URL and path
 * handling, a file read each; bench/users README, "One bundled file for the command"). bin/svc.js
 * runs the bundle when it is there and not older than dist/src; the library's entry points (package
 * exports) stay on dist/src.
 *
 * Made from the compiled JavaScript (dist/src, after tsc), so the bundle runs the code the tests ran;
 * esbuild follows each file's source map, so the bundle's map names the TypeScript sources.
 * - **Packages in plain JavaScript are bundled too** (Fastify and its dependencies, Ajv, RxJS,
 *   semver, pino, marked, re2js...): Node's module loader found, read and compiled their ~330 files
 *   at every start (bench/users README "A lighter start"). Bundled CommonJS asks for Node's
 *   built-ins through the `require` the banner gives each output file. EXTERNAL stays in
 *   node_modules, loaded by Node as before.
 * - **Code splitting**: each of svc's own `import()`s (a command's module, a connector's driver
 *   side) stays a chunk of its own, loaded when it is today.
 * - **The Starlark worker** (src/steps/starlark/worker.ts) is an entry of its own, dist/bundle/worker.js:
 *   pool.ts starts `./worker.js` beside its own module, which in the bundle is a chunk of the same
 *   directory (chunks are never put in a subdirectory for that reason). The cluster workers of
 *   `svc serve --workers` run bin/svc.js again, so they run the bundle too.
 * - Files found from a module's own location (package.json, vendor/, node_modules) are found by
 *   walking up from it (src/package/index.ts, src/cli/version.ts, createRequire), which works from
 *   dist/bundle/ as from dist/src/<area>/.
 * - src/cli/tick-record.ts, main.ts's first import, runs after the few small chunks svc.js imports
 *   (a chunk's imports come first), still before anything of the server is loaded
 *   (test/e2e/tick-record.test.ts holds what it is for).
 *
 * Every file is written beside its place and renamed into it, the entry last, so that a process
 * starting during a build reads either the previous bundle or the new one whole. Chunks of the
 * previous build are kept until the next one (a server started before a rebuild may still import
 * one of them lazily); older ones are removed.
 *
 * Run by `npm run build` and `prepare`, after tsc: node --import tsx scripts/bundle.ts
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist/bundle');
/** What the previous builds wrote (the names this one and the previous one keep). */
const listFile = join(outdir, 'outputs.json');
/** The entries: the command (what bin/svc.js imports) and the Starlark pool's worker thread. */
const ENTRIES = { svc: 'dist/src/cli/main.js', worker: 'dist/src/steps/starlark/worker.js' } as const;
/**
 * Packages left in node_modules: those that find files beside their own (PGlite's WebAssembly and
 * data, pino's transport worker in thread-stream, esbuild's binary); undici (src/connectors/http
 * loads its internals by path: one copy); and those svc loads only for a connection or a feature,
 * lazily already (the drivers, prom-client, OpenTelemetry, jose, pino-pretty, and yaml,
 * csv-stringify and tr46 through `createRequire`, which a bundler does not follow anyway).
 */
const EXTERNAL = [
  '@electric-sql/*',
  'pg',
  'pg-*',
  'ioredis',
  'mysql2',
  'undici',
  'pino-pretty',
  'thread-stream',
  'prom-client',
  '@opentelemetry/*',
  'jose',
  'yaml',
  'csv-stringify',
  'tr46',
  'esbuild',
  'puppeteer-core',
];

for (const source of Object.values(ENTRIES)) if (!existsSync(join(root, source))) throw new Error(`bundle: ${source} is missing; run tsc first`);

const result = await build({
  absWorkingDir: root,
  entryPoints: ENTRIES,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  // esbuild's CommonJS wrappers call `require` for Node's built-ins; an ES module has none of its own.
  banner: { js: "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);" },
  splitting: true,
  outdir,
  chunkNames: '[name]-[hash]',
  sourcemap: 'linked',
  metafile: true,
  write: false,
  logLevel: 'warning',
  legalComments: 'none',
  // V8 keeps a module's source for as long as the process runs: without whitespace and comments, and
  // in ASCII (escapes in strings and names), so that it is a one-byte string. One `…` in a comment
  // esbuild kept made the main chunk's 0.9 MB of source 1.9 MB of heap (bench/users README "Boot
  // code dropped"; test/e2e/bundle.test.ts). Names are kept, for stack traces and `.name`.
  charset: 'ascii',
  minifyWhitespace: true,
});

mkdirSync(outdir, { recursive: true });
const written = result.outputFiles.map((f) => f.path);
const entries = new Set(Object.keys(ENTRIES).map((name) => join(outdir, `${name}.js`)));
// Chunks and maps first, the entries last: an entry is only ever read with its chunks in place.
const ordered = [...result.outputFiles].sort((a, b) => Number(entries.has(a.path)) - Number(entries.has(b.path)));
for (const file of ordered) writeAtomically(file.path, file.contents);
// The module graph, for the tests that check what the bundled command loads at boot.
writeAtomically(join(outdir, 'metafile.json'), JSON.stringify(result.metafile));

const previous = readList();
const keep = new Set([...written, ...previous, listFile, join(outdir, 'metafile.json')].map((p) => basename(p)));
// (Not another build's files being written: two test processes may bundle at once.)
for (const name of readdirSync(outdir)) if (!keep.has(name) && !name.endsWith('.tmp')) rmSync(join(outdir, name), { force: true });
writeAtomically(listFile, JSON.stringify(written.map((p) => basename(p))));

const bytes = result.outputFiles.filter((f) => f.path.endsWith('.js')).reduce((sum, f) => sum + f.contents.length, 0);
const chunks = result.outputFiles.filter((f) => f.path.endsWith('.js')).length;
console.log(`bundle: dist/bundle (${chunks} files, ${Math.round(bytes / 1024)} KiB of JavaScript, ${Object.keys(result.metafile.inputs).length} modules)`);

function writeAtomically(path: string, contents: Uint8Array | string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

/** The files of the previous build (full paths); none before the first. */
function readList(): string[] {
  try {
    return (JSON.parse(readFileSync(listFile, 'utf8')) as string[]).map((name) => join(outdir, name));
  } catch {
    return [];
  }
}
