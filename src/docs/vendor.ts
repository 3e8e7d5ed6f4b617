/**
 * Where the fetched renderer bundles live (`vendor/docs/<package>@<version>/<path>` at the root of
 * the svc package, written by scripts/fetch-doc-renderers.ts) and reading them, patched, once per
 * process.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package/index.js';
import type { UiRenderer } from '../model/index.js';
import { BUNDLES, type Bundle } from './bundles.js';

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
