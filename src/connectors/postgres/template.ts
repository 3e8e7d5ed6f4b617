/**
 * An empty PGlite data directory made once, so that a new database does not run initdb: initdb is
 * most of a first start's time and leaves the engine's WebAssembly memory large for good (bench/users
 * README "examples/shop on PGlite and a server"). The template is `dumpDataDir`'s archive at
 * `vendor/pglite/empty-<PGlite version>.tar.gz` (scripts/pglite-template.ts) or SVC_PGLITE_TEMPLATE,
 * keyed by PGlite's version, whose catalog it holds; without one, initdb runs as before.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { packageRoot } from '../../package/index.js';
import { extractTar } from './tar.js';

/** The installed PGlite's version (its package.json is not among the package's exports). */
function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pkg = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** Where the template of the installed PGlite is (it may not exist). */
export function pgliteTemplateFile(): string {
  return process.env.SVC_PGLITE_TEMPLATE || join(packageRoot(), 'vendor', 'pglite', `empty-${pgliteVersion()}.tar.gz`);
}

/** The template's archive, or undefined when there is none. */
export function readTemplate(file: string = pgliteTemplateFile()): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Whether `dir` holds a data directory already (PostgreSQL writes PG_VERSION into every one). */
export function holdsDatabase(dir: string): boolean {
  return existsSync(join(dir, 'PG_VERSION'));
}

/**
 * Lays the template out as the data directory `dir`, when `dir` does not exist or is empty. It is
 * written beside `dir` and renamed into place, so a start cut short never leaves a half directory
 * that would later open as a database. Returns whether it did.
 */
export async function layOutTemplate(dir: string, archive: Buffer): Promise<boolean> {
  if (!(await isMissingOrEmpty(dir))) return false;
  const partial = `${dir}.partial-${process.pid}`;
  try {
    extractTar(gunzipSync(archive), partial);
    await mkdir(dirname(dir), { recursive: true });
    // rename() replaces an empty directory but not a missing parent; rmdir the empty one first so
    // that the rename means the same on every platform.
    await rmdir(dir).catch(() => undefined);
    await rename(partial, dir);
    return true;
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

async function isMissingOrEmpty(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/** Writes `archive` as the template at `file` (atomically: a reader never sees half of it). */
export async function writeTemplate(file: string, archive: Uint8Array): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.partial-${process.pid}`;
  await writeFile(partial, archive);
  await rename(partial, file);
}
