/**
 * The files of a documentation page, by sub-path below the endpoint's path (`''` is the page
 * itself): a template's page, or a renderer's page and its assets under `assets/`, each named by a
 * hash of its bytes so it can be cached as immutable and a new bundle gets a new URL.
 */
import type { OpenApiMeta } from '../model/index.js';
import { markdownToHtml } from './markdown.js';
import { rendererPage } from './pages.js';
import type { DocsPage } from './plan.js';
import { renderTemplate } from './template.js';
import { relativeUrl } from './urls.js';
import { bundleAssets } from './vendor.js';

export interface DocsFile {
  /**
   * A function for what is made or read on the first request: a page (it may embed the OpenAPI
   * document), a renderer's asset (megabytes, vendor.ts).
   */
  readonly content: string | Buffer | (() => string | Buffer);
  readonly contentType: string;
  /** True for assets (their path names their content); pages are revalidated. */
  readonly immutable: boolean;
  /** The content's SHA-256 in hex, when taken already (an asset: its name carries it). */
  readonly sha256?: string;
}

export const HTML_TYPE = 'text/html; charset=utf-8';

export interface SiteInput {
  readonly page: DocsPage;
  /** The endpoint's path. */
  readonly path: string;
  readonly meta: OpenApiMeta;
  /** The document as JSON text, for a renderer page with no spec endpoint to load it from. */
  readonly documentJson: () => string;
  readonly vendorRoot?: string;
}

export function docsPageFiles(input: SiteInput): Map<string, DocsFile> {
  const { page, meta } = input;
  if (page.kind === 'template') {
    const html = (): string =>
      renderTemplate(page.template, {
        title: meta.title,
        version: meta.version,
        descriptionHtml: meta.description !== undefined ? markdownToHtml(meta.description) : '',
        specUrl: page.specUrl ?? '',
        specYamlUrl: page.specYamlUrl ?? '',
      });
    return new Map([['', { content: html, contentType: HTML_TYPE, immutable: false }]]);
  }
  const files = new Map<string, DocsFile>();
  const urls = new Map<string, string>();
  for (const asset of bundleAssets(page.renderer, input.vendorRoot)) {
    const sub = `assets/${hashedName(asset.name, asset.sha256)}`;
    files.set(sub, { content: asset.body, contentType: asset.contentType, immutable: true, sha256: asset.sha256 });
    // planDocsPage refused paths for which this is undefined.
    urls.set(asset.name, relativeUrl(input.path, `${input.path.replace(/\/$/, '')}/${sub}`)!);
  }
  const html = (): string =>
    rendererPage({
      renderer: page.renderer,
      title: meta.title,
      assets: urls,
      spec: page.specUrl !== undefined ? { url: page.specUrl } : { documentJson: input.documentJson() },
    });
  files.set('', { content: html, contentType: HTML_TYPE, immutable: false });
  return files;
}

/** `swagger-ui.css` -> `swagger-ui.<10 hex digits of its sha-256>.css`. */
function hashedName(name: string, sha256: string): string {
  const hash = sha256.slice(0, 10);
  const dot = name.lastIndexOf('.');
  return dot === -1 ? `${name}.${hash}` : `${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
}
