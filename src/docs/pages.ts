/**
 * The page of each built-in renderer (SPEC.md §4.2, DECISIONS.md §5): assets by relative URLs, and
 * every feature that would reach another host off: scalar's hosted fonts, agent and MCP panels and
 * telemetry; elements' mermaid CDN loader (a `#mermaid-loader` element stops it); swagger's validator
 * badge and top bar; redoc's CDN logo (patched, bundles.ts). An empty inline favicon spares a
 * `/favicon.ico` request.
 */
import type { UiRenderer } from '../model/index.js';
import { escapeHtml, jsonForScript, scriptSafeJson } from './html.js';

export interface RendererPage {
  readonly renderer: UiRenderer;
  readonly title: string;
  /** The URL of each served asset, by file name (`swagger-ui.css`). */
  readonly assets: ReadonlyMap<string, string>;
  /** Where the document comes from: a URL, or its JSON text embedded in the page. */
  readonly spec: { readonly url: string } | { readonly documentJson: string };
}

const DOCUMENT_ID = 'svc-openapi-document';

export function rendererPage(page: RendererPage): string {
  const asset = (name: string) => escapeHtml(page.assets.get(name) ?? missing(name));
  const embedded =
    'documentJson' in page.spec ? `<script type="application/json" id="${DOCUMENT_ID}">${scriptSafeJson(page.spec.documentJson)}</script>\n` : '';
  /** A JavaScript expression giving the document: its URL, or the embedded object. */
  const spec = 'url' in page.spec ? jsonForScript(page.spec.url) : `JSON.parse(document.getElementById(${jsonForScript(DOCUMENT_ID)}).textContent)`;
  const byUrl = 'url' in page.spec;
  switch (page.renderer) {
    case 'scalar': {
      const config = {
        withDefaultFonts: false,
        agent: { disabled: true },
        mcp: { disabled: true },
        telemetry: false,
        showDeveloperTools: 'never',
      };
      return html(
        page.title,
        '',
        `<div id="app"></div>\n${embedded}<script src="${asset('standalone.js')}"></script>\n` +
          `<script>Scalar.createApiReference('#app', Object.assign(${jsonForScript(config)}, { ${byUrl ? 'url' : 'content'}: ${spec} }));</script>`,
      );
    }
    case 'elements': {
      const source = byUrl ? ` apiDescriptionUrl="${escapeHtml((page.spec as { url: string }).url)}"` : '';
      const load = byUrl ? '' : `<script>document.getElementById('docs').apiDescriptionDocument = ${spec};</script>\n`;
      return html(
        page.title,
        `<script id="mermaid-loader"></script>\n<link rel="stylesheet" href="${asset('styles.min.css')}">\n<script src="${asset('web-components.min.js')}"></script>\n`,
        `<elements-api id="docs"${source} router="hash" layout="sidebar"></elements-api>\n${embedded}${load}`,
        ' style="height: 100vh; margin: 0"',
      );
    }
    case 'swagger': {
      const config = { dom_id: '#swagger-ui', validatorUrl: null, deepLinking: true, layout: 'BaseLayout' };
      return html(
        page.title,
        `<link rel="stylesheet" href="${asset('swagger-ui.css')}">\n`,
        `<div id="swagger-ui"></div>\n${embedded}<script src="${asset('swagger-ui-bundle.js')}"></script>\n` +
          `<script>window.ui = SwaggerUIBundle(Object.assign(${jsonForScript(config)}, { presets: [SwaggerUIBundle.presets.apis], ${byUrl ? 'url' : 'spec'}: ${spec} }));</script>`,
      );
    }
    case 'redoc':
      return html(
        page.title,
        '',
        `<div id="redoc"></div>\n${embedded}<script src="${asset('redoc.standalone.js')}"></script>\n` +
          `<script>Redoc.init(${spec}, {}, document.getElementById('redoc'));</script>`,
        ' style="margin: 0"',
      );
  }
}

function html(title: string, head: string, body: string, bodyAttributes = ''): string {
  return (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>${escapeHtml(title)}</title>\n<link rel="icon" href="data:,">\n${head}</head>\n<body${bodyAttributes}>\n${body}\n</body>\n</html>\n`
  );
}

function missing(name: string): never {
  throw new Error(`renderer asset ${name} is not among the bundle's files (src/docs/bundles.ts)`);
}
