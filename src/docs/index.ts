/**
 * Documentation pages (SPEC.md §4.2, DECISIONS.md §5): the four built-in renderers, served from
 * bundles fetched at install time (bundles.ts, vendor.ts), and custom templates. Planned at boot
 * with diagnostics (plan.ts), built into files by sub-path (site.ts) that src/http serves.
 */
export { BUNDLES, type Bundle, type BundleFile, type BundlePatch } from './bundles.js';
export { bundleDir, vendorDir } from './vendor.js';
export { planDocsPage, type DocsPage, type DocsPlan, type PlanOptions } from './plan.js';
export { docsPageFiles, type DocsFile, type SiteInput } from './site.js';
export { manualPage } from './manual.js';
