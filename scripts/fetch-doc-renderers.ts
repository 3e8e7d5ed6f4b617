/**
 * Fetches the documentation renderers' browser bundles (src/docs/bundles.ts) into vendor/docs/:
 * for each, `npm pack <package>@<version>` (the npm registry through npm itself, so its cache,
 * registry and proxy settings apply), the tarball checked against the pinned integrity hash, and
 * only the listed files extracted. No dependency tree is installed: `@stoplight/elements` would
 * bring about 1 GB for one 2 MB bundle. A bundle already in place with the same pin is kept, so
 * this runs in well under a second after the first time.
 *
 * Run by `npm run build` and `prepare` (so `npm ci` runs it): node --import tsx scripts/fetch-doc-renderers.ts
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { BUNDLES, bundleDir, vendorDir, type Bundle } from '../src/docs/index.js';

const STAMP = '.integrity';

function installed(bundle: Bundle, dir: string): boolean {
  try {
    if (readFileSync(join(dir, STAMP), 'utf8') !== bundle.integrity) return false;
  } catch {
    return false;
  }
  return [...bundle.files.map((f) => f.path), ...bundle.notices].every((path) => existsSync(join(dir, path)));
}

/** The registry tarball, by `npm pack` into a temporary directory. */
function packTarball(bundle: Bundle): Buffer {
  const temp = mkdtempSync(join(tmpdir(), 'svc-doc-renderer-'));
  try {
    const out = execFileSync('npm', ['pack', `${bundle.package}@${bundle.version}`, '--json', '--pack-destination', temp], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const [packed] = JSON.parse(out) as { filename: string }[];
    // npm names a scoped package's tarball `scope-name-version.tgz`.
    return readFileSync(join(temp, packed!.filename.replace(/^@/, '').replace(/\//g, '-')));
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** The regular files of a tar archive by path (ustar, with pax and GNU long names). */
export function untar(archive: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let offset = 0;
  let longName: string | undefined;
  const field = (header: Buffer, start: number, length: number) =>
    header
      .subarray(start, start + length)
      .toString('utf8')
      .replace(/\0.*$/s, '');
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156]!);
    const prefix = field(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    const data = archive.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    longName = undefined;
    if (type === 'x') {
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1];
    } else if (type === 'L') {
      longName = data.toString('utf8').replace(/\0.*$/s, '');
    } else if (type === '0' || type === '\0') {
      files.set(name, Buffer.from(data));
    }
  }
  return files;
}

function sri(bytes: Buffer): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

function fetchBundle(bundle: Bundle, dir: string): void {
  const name = `${bundle.package}@${bundle.version}`;
  const tarball = packTarball(bundle);
  const integrity = sri(tarball);
  if (integrity !== bundle.integrity) {
    throw new Error(`${name}: the registry tarball's integrity is ${integrity}, not the pinned ${bundle.integrity} (src/docs/bundles.ts)`);
  }
  const entries = untar(gunzipSync(tarball));
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    stage(bundle, entries, staging);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  renameSync(staging, dir);
}

/** The bundle's files written to `staging`, its patches checked, and the stamp last. */
function stage(bundle: Bundle, entries: ReadonlyMap<string, Buffer>, staging: string): void {
  const name = `${bundle.package}@${bundle.version}`;
  for (const path of [...bundle.files.map((f) => f.path), ...bundle.notices]) {
    const body = entries.get(`package/${path}`);
    if (body === undefined) throw new Error(`${name}: the tarball has no package/${path}`);
    mkdirSync(dirname(join(staging, path)), { recursive: true });
    writeFileSync(join(staging, path), body);
  }
  for (const patch of bundle.patches) {
    const found = occurrences(readFileSync(join(staging, patch.path), 'utf8'), patch.from);
    if (found !== patch.count) throw new Error(`${name}: ${patch.path} holds ${JSON.stringify(patch.from)} ${found} times, not ${patch.count} (${patch.why})`);
  }
  // The stamp is written last: a fetch cut short is fetched again.
  writeFileSync(join(staging, STAMP), bundle.integrity);
}

function main(): void {
  const root = vendorDir();
  for (const [renderer, bundle] of Object.entries(BUNDLES)) {
    const dir = bundleDir(bundle, root);
    if (installed(bundle, dir)) continue;
    const started = Date.now();
    try {
      fetchBundle(bundle, dir);
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr;
      process.stderr.write(`fetch-doc-renderers: ${renderer}: ${(error as Error).message}${stderr ? `\n${stderr}` : ''}\n`);
      process.exitCode = 1;
      continue;
    }
    process.stderr.write(`fetch-doc-renderers: ${renderer}: ${bundle.package}@${bundle.version} in ${Date.now() - started} ms\n`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
