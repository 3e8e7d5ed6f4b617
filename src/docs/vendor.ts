/**
 * Where the fetched renderer bundles live (`vendor/docs/<package>@<version>/<path>` at the root of
 * the svc package, written by scripts/fetch-doc-renderers.ts) and reading them, patched.
 */
import { createHash } from 'node:crypto';
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
  /** The SHA-256 of the served (patched) bytes, in hex: it names the file's URL. */
  readonly sha256: string;
  /**
   * The served bytes, read again from disk: a renderer's bundle is megabytes (Scalar's 4.3 MB) that
   * a server need not hold until a page asks for them. Throws when the file changed since its hash
   * was taken: its URL promised browsers the bytes it had then (served as immutable).
   */
  body(): Buffer;
  readonly contentType: string;
}

const hashed = new Map<string, readonly BundleAsset[]>();

/** The served files of a renderer, patched (bundles.ts), hashed once per process and directory. */
export function bundleAssets(renderer: UiRenderer, root: string = vendorDir()): readonly BundleAsset[] {
  const key = `${root}\0${renderer}`;
  let assets = hashed.get(key);
  if (assets === undefined) {
    const bundle = BUNDLES[renderer];
    const dir = bundleDir(bundle, root);
    assets = bundle.files.map((file) => {
      const read = (): Buffer => {
        let body: Buffer = readFileSync(join(dir, file.path));
        for (const patch of bundle.patches.filter((p) => p.path === file.path)) body = applyPatch(body, patch.from, patch.to);
        return body;
      };
      const sha256 = sha256Of(read());
      const body = (): Buffer => {
        const bytes = read();
        if (sha256Of(bytes) !== sha256) throw new Error(`${join(dir, file.path)} changed on disk since svc started; reload svc to serve it`);
        return bytes;
      };
      return { name: file.path.slice(file.path.lastIndexOf('/') + 1), sha256, body, contentType: file.contentType };
    });
    hashed.set(key, assets);
  }
  return assets;
}

function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function applyPatch(body: Buffer, from: string, to: string): Buffer {
  const text = body.toString('utf8');
  return text.includes(from) ? Buffer.from(text.split(from).join(to), 'utf8') : body;
}
