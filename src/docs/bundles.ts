/**
 * The renderers' browser bundles (DECISIONS.md §5): which npm package, version and files each comes
 * from, pinned by the registry tarball's integrity hash. `scripts/fetch-doc-renderers.ts` fetches
 * exactly these files into `vendor/docs/` at install and build time (never the packages'
 * dependency trees: `@stoplight/elements` alone would install about 1 GB for one 2 MB bundle), and
 * the server reads them from there at boot.
 */
import type { UiRenderer } from '../model/index.js';

export interface BundleFile {
  /** Path inside the package (the tarball's `package/` prefix left out). */
  readonly path: string;
  readonly contentType: string;
}

/**
 * A literal replacement applied when the file is read, to turn off an outbound request the
 * renderer has no option for. `count` is how many times `from` occurs in the pinned file
 * (test/docs/bundles.test.ts holds it), so a version bump that moves the text fails the tests.
 */
export interface BundlePatch {
  readonly path: string;
  readonly from: string;
  readonly to: string;
  readonly count: number;
  readonly why: string;
}

export interface Bundle {
  readonly package: string;
  readonly version: string;
  /** The `dist.integrity` of the registry tarball (Subresource Integrity form, sha512). */
  readonly integrity: string;
  /** Served under the page's `assets/`. */
  readonly files: readonly BundleFile[];
  /** Kept beside the bundles (licence and third-party notices), not served. */
  readonly notices: readonly string[];
  readonly patches: readonly BundlePatch[];
}

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

export const BUNDLES: Readonly<Record<UiRenderer, Bundle>> = {
  scalar: {
    package: '@scalar/api-reference',
    version: '1.72.1',
    integrity: 'sha512-XpEJ0rfc/cXbCrR+iC4kK0o/WwX2dTtGQbT049OlPKAHD6IMIFdTeGz2r+M27P2EDWKyUITRm/NzlP8z2pw/Ow==',
    // Self-contained (its styles included); the ESM build would load chunks on demand.
    files: [{ path: 'dist/browser/standalone.js', contentType: JS }],
    // The package ships no licence file (MIT, said in its package.json).
    notices: ['package.json'],
    patches: [],
  },
  elements: {
    package: '@stoplight/elements',
    version: '9.0.25',
    integrity: 'sha512-rDbNsgSCNo74lyV57cBzym+8F68/R2j7UPq4r3w5qK608vX8APNJhTq+2MkbTjsM3bUhFIoRdI225tlI85KpCA==',
    files: [
      { path: 'web-components.min.js', contentType: JS },
      { path: 'styles.min.css', contentType: CSS },
    ],
    notices: ['web-components.min.js.LICENSE.txt'],
    patches: [],
  },
  swagger: {
    package: 'swagger-ui-dist',
    version: '5.35.0',
    integrity: 'sha512-U06rpMtW9V3XPGOBeamTUSr0Z09jMX4IJuANpE/EZbAhw0G8CgwrzU4YmXkn/h0wCDNsXdGarTNNHC3sU8yVUQ==',
    files: [
      { path: 'swagger-ui-bundle.js', contentType: JS },
      { path: 'swagger-ui.css', contentType: CSS },
    ],
    notices: ['LICENSE', 'NOTICE', 'swagger-ui-bundle.js.LICENSE.txt'],
    patches: [],
  },
  // Redoc 2: Redoc 3 adds telemetry sent to Redocly's collector (opt-out) and icons drawn from
  // Redocly's CDN, two more ways for a page to leave the machine, for no feature svc's documents use.
  redoc: {
    package: 'redoc',
    version: '2.5.4',
    integrity: 'sha512-M6jWhG1qoBnH6TFmzJnstyCZ87HmOY/UzDm78mHiYihEdlV/YcS9ogOo1NlElnJMeLsyxHFe2yFc4sNjHTrABQ==',
    files: [{ path: 'bundles/redoc.standalone.js', contentType: JS }],
    notices: ['LICENSE', 'bundles/redoc.standalone.js.LICENSE.txt'],
    patches: [
      {
        path: 'bundles/redoc.standalone.js',
        from: 'src:"https://cdn.redoc.ly/redoc/logo-mini.svg"',
        // An image without a source is never requested; its error handler then hides it.
        to: 'src:""',
        count: 1,
        why: "the sidebar's Redocly logo is an image on Redocly's CDN, with no option to leave it out",
      },
    ],
  },
};
