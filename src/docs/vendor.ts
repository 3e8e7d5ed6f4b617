/**
 * Where the fetched renderer bundles live (`vendor/docs/<package>@<version>/<path>` at the root of
 * the svc package, written by scripts/fetch-doc-renderers.ts) and reading them, patched, once per
 * process.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UiRenderer } from '../model/index.js';
import { BUNDLES, type Bundle } from './bundles.js';

/** The svc package's root, found from this file in src/ or dist/src/. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'svc') return dir;
    } catch {
      // Not here: one directory up.
    }
    dir = dirname(dir);
  }
  throw new Error(`svc's package.json was not found above ${fileURLToPath(import.meta.url)}`);
}

/** `vendor/docs` of the svc package (or SVC_VENDOR_DIR, for tests and packagers). */
export function vendorDir(): string {
  return process.env.SVC_VENDOR_DIR ?? join(packageRoot(), 'vendor', 'docs');
}

export function bundleDir(bundle: Bundle, root: string = vendorDir()): string {
  return join(root, `${bundle.package}@${bundle.version}`);
}

/** The files of a renderer's bundle that are not on disk (empty when it is installed). */
export function missingBundleFiles(renderer: UiRenderer, root: string = vendorDir()): string[] {
  const bundle = BUNDLES[renderer];
  const dir = bundleDir(bundle, root);
  return bundle.files.map((f) => join(dir, f.path)).filter((path) => !existsSync(path));
}

export interface BundleAsset {
  /** The file's name, e.g. `swagger-ui-bundle.js`. */
  readonly name: string;
  readonly body: Buffer;
  readonly contentType: string;
}

const loaded = new Map<string, readonly BundleAsset[]>();

/** The served files of a renderer, patched (bundles.ts), read once per process and directory. */
export function bundleAssets(renderer: UiRenderer, root: string = vendorDir()): readonly BundleAsset[] {
  const key = `${root}\0${renderer}`;
  let assets = loaded.get(key);
  if (assets === undefined) {
    const bundle = BUNDLES[renderer];
    const dir = bundleDir(bundle, root);
    assets = bundle.files.map((file) => {
      let body: Buffer = readFileSync(join(dir, file.path));
      for (const patch of bundle.patches.filter((p) => p.path === file.path)) body = applyPatch(body, patch.from, patch.to);
      return { name: file.path.slice(file.path.lastIndexOf('/') + 1), body, contentType: file.contentType };
    });
    loaded.set(key, assets);
  }
  return assets;
}

function applyPatch(body: Buffer, from: string, to: string): Buffer {
  const text = body.toString('utf8');
  return text.includes(from) ? Buffer.from(text.split(from).join(to), 'utf8') : body;
}
