/**
 * Documentation pages served (SPEC.md §4.2, DECISIONS.md §5), in-process over Fastify's inject: each
 * renderer's page names its assets relative to itself, and each asset is served below the page with
 * its content type and immutable caching; the page loads the nearest JSON spec endpoint, or
 * `spec_url`, or embeds the document when none is declared (the very text of `svc openapi`, which
 * no `</script>` in a description can break out of); the guard covers the page and its assets; a
 * template gets its values escaped, the description as Markdown, the spec paths. The manifests are
 * real directories where a template file is involved (loadServiceModel reads it).
 */
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServer, createLogger, docsSites } from '../../src/http/index.js';
import { compileOpenApi, serializeDocument } from '../../src/openapi/index.js';
import { buildServiceModel, compileService, loadServiceModel, type StepSpec } from '../../src/steps/index.js';
import type { ServiceModel } from '../../src/model/index.js';

type App = Awaited<ReturnType<typeof buildServer>>;

async function serveModel(model: ServiceModel<StepSpec>): Promise<App> {
  const service = compileService(model);
  assert.deepEqual(
    service.diagnostics.map((d) => `${d.summary}: ${d.detail}`),
    [],
  );
  return buildServer({
    endpoints: service.endpoints,
    docs: docsSites(service.docs, model),
    bodyLimit: 1024,
    requestTimeoutMs: 1000,
    logger: createLogger({ stream: { write: () => {} } }),
  });
}

function modelOf(source: string): ServiceModel<StepSpec> {
  const built = buildServiceModel([{ filename: 'main.hcl', source }]);
  assert.ok(built.model, built.diagnostics.map((d) => d.summary).join('; '));
  return built.model;
}

async function withApp(source: string, body: (app: App, model: ServiceModel<StepSpec>) => Promise<void>): Promise<void> {
  const model = modelOf(source);
  const app = await serveModel(model);
  try {
    await body(app, model);
  } finally {
    await app.close();
  }
}

const SERVICE = `
openapi {
  title       = "Pets & <Friends>"
  version     = "2.0.1"
  description = "Pets, **kindly** served.\\n\\n<script>alert(1)</script>"
}
endpoint "GET /pets" {
  description = "Lists the pets"
  pipeline {
    respond { body = [] }
  }
}
`;

/** The `src` and `href` attributes of the page that point at its assets. */
function assetUrls(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="([^"]*assets\/[^"]*)"/g)].map((m) => m[1]!);
}

/** A URL relative to the page at `pagePath`, as a path. */
function resolveFrom(pagePath: string, url: string): string {
  return new URL(url, `http://svc.test${pagePath}`).pathname;
}

const ASSETS: Record<string, [string, string][]> = {
  scalar: [['standalone', 'text/javascript; charset=utf-8']],
  elements: [
    ['styles.min', 'text/css; charset=utf-8'],
    ['web-components.min', 'text/javascript; charset=utf-8'],
  ],
  swagger: [
    ['swagger-ui', 'text/css; charset=utf-8'],
    ['swagger-ui-bundle', 'text/javascript; charset=utf-8'],
  ],
  redoc: [['redoc.standalone', 'text/javascript; charset=utf-8']],
};

test('each renderer: the page, its assets below it (immutable, hashed names), the nearest spec endpoint relative to the page', async () => {
  const pages = Object.keys(ASSETS)
    .map((ui) => `endpoint "GET /docs/${ui}" {\n  openapi { ui = "${ui}" }\n}\n`)
    .join('');
  await withApp(`${SERVICE}\nendpoint "GET /openapi.json" {\n  openapi { format = "json" }\n}\n${pages}`, async (app) => {
    for (const [ui, expected] of Object.entries(ASSETS)) {
      const path = `/docs/${ui}`;
      const page = await app.inject({ url: path });
      assert.equal(page.statusCode, 200, ui);
      assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(page.headers['cache-control'], 'no-cache');
      assert.match(String(page.headers.etag), /^"[A-Za-z0-9_-]{43}"$/);
      const html = page.body;
      assert.match(html, /<title>Pets &amp; &lt;Friends&gt;<\/title>/, ui);
      // The document comes from the JSON spec endpoint, named relative to the page.
      assert.ok(html.includes('"../openapi.json"'), `${ui} loads ../openapi.json:\n${html}`);
      assert.ok(!html.includes('svc-openapi-document'), `${ui} embeds nothing`);
      const urls = assetUrls(html);
      assert.equal(urls.length, expected.length, `${ui}: ${urls.join(', ')}`);
      for (const [i, [stem, type]] of expected.entries()) {
        const url = urls.find((u) => u.includes(`/${stem}.`));
        assert.ok(url, `${ui} names ${stem}: ${urls.join(', ')}`);
        assert.match(url!, new RegExp(`^\\./${ui}/assets/${stem.replace('.', '\\.')}\\.[0-9a-f]{10}\\.(js|css)$`), `${ui} asset ${i}`);
        const asset = await app.inject({ url: resolveFrom(path, url!) });
        assert.equal(asset.statusCode, 200, url);
        assert.equal(asset.headers['content-type'], type, url);
        assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable', url);
        assert.ok(asset.rawPayload.length > 100_000, `${url} is the bundle (${asset.rawPayload.length} bytes)`);
        // Its tag, taken at boot with its name, is the hash of the bytes served.
        assert.equal(asset.headers.etag, `"${createHash('sha256').update(asset.rawPayload).digest('base64url')}"`, url);
        const again = await app.inject({ url: resolveFrom(path, url!), headers: { 'if-none-match': String(asset.headers.etag) } });
        assert.equal(again.statusCode, 304);
      }
      const head = await app.inject({ method: 'HEAD', url: path });
      assert.equal(head.statusCode, 200);
      const post = await app.inject({ method: 'POST', url: path });
      assert.equal(post.statusCode, 405);
      assert.equal(post.headers.allow, 'GET, HEAD');
    }
  });
});

test('every outbound feature is turned off in the pages and the served bundles', async () => {
  const pages = Object.keys(ASSETS)
    .map((ui) => `endpoint "GET /${ui}" {\n  openapi { ui = "${ui}" }\n}\n`)
    .join('');
  await withApp(`${SERVICE}${pages}`, async (app) => {
    const page = async (ui: string) => (await app.inject({ url: `/${ui}` })).body;
    const asset = async (ui: string, stem: string) => {
      const html = await page(ui);
      const url = assetUrls(html).find((u) => u.includes(`/${stem}.`))!;
      return (await app.inject({ url: resolveFrom(`/${ui}`, url) })).body;
    };
    const scalar = await page('scalar');
    for (const option of [
      '"withDefaultFonts":false',
      '"agent":{"disabled":true}',
      '"mcp":{"disabled":true}',
      '"telemetry":false',
      '"showDeveloperTools":"never"',
    ]) {
      assert.ok(scalar.includes(option), `scalar: ${option}`);
    }
    assert.ok(!scalar.includes('proxyUrl'), 'scalar: no request proxy');
    // Elements adds its CDN mermaid script only when no #mermaid-loader element exists.
    assert.match(await page('elements'), /<head>[\s\S]*<script id="mermaid-loader"><\/script>[\s\S]*<\/head>/);
    const swagger = await page('swagger');
    assert.ok(swagger.includes('"validatorUrl":null'), 'swagger: no validator badge');
    assert.ok(!swagger.includes('SwaggerUIStandalonePreset'), 'swagger: no top bar');
    const redoc = await asset('redoc', 'redoc.standalone');
    assert.ok(!redoc.includes('cdn.redoc.ly'), "redoc: the logo on Redocly's CDN is patched out");
    assert.ok(redoc.includes('alt:"redocly logo",onError:()=>t(!1),src:""'), 'redoc: the logo has no source');
    for (const ui of Object.keys(ASSETS)) assert.ok((await page(ui)).includes('<link rel="icon" href="data:,">'), `${ui}: no favicon request`);
  });
});

test('with no JSON spec endpoint the page embeds the document, the text svc openapi prints; a description cannot end the script', async () => {
  await withApp(
    `${SERVICE}endpoint "GET /docs" {\n  openapi { ui = "redoc" }\n}\nendpoint "GET /openapi.yaml" {\n  openapi { format = "yaml" }\n}\n`,
    async (app, model) => {
      const html = (await app.inject({ url: '/docs' })).body;
      const m = /<script type="application\/json" id="svc-openapi-document">([\s\S]*?)<\/script>/.exec(html);
      assert.ok(m, html.slice(0, 2000));
      // The description holds `<script>alert(1)</script>`: inside the page it is `\u003c`-escaped.
      assert.ok(!m[1]!.includes('<'), 'no < inside the embedded JSON');
      assert.equal(JSON.stringify(JSON.parse(m[1]!)), JSON.stringify(JSON.parse(serializeDocument(compileOpenApi(model), 'json'))));
      assert.equal((html.match(/<\/script>/g) ?? []).length, 3, 'the embedded document, the bundle, the init script');
      assert.ok(html.includes('Redoc.init(JSON.parse(document.getElementById("svc-openapi-document").textContent), {}, document.getElementById(\'redoc\'))'));
    },
  );
});

test('the nearest JSON spec endpoint by path; spec_url overrides; a trailing slash', async () => {
  await withApp(
    `${SERVICE}
endpoint "GET /openapi.json" {
  openapi { format = "json" }
}
endpoint "GET /v2/{x}/openapi.json" {
  openapi { format = "json" }
}
endpoint "GET /v2/api/openapi.json" {
  openapi "spec" { format = "json" }
}
endpoint "GET /v2/api/docs" {
  openapi { ui = "swagger" }
}
endpoint "GET /v2/reference/" {
  openapi "ui" { renderer = "elements" }
}
endpoint "GET /v2/elsewhere" {
  openapi "ui" {
    renderer = "scalar"
    spec_url = "https://specs.example/api.json"
  }
}
endpoint "GET /docs" {
  openapi {}
}
`,
    async (app) => {
      const swagger = (await app.inject({ url: '/v2/api/docs' })).body;
      assert.ok(swagger.includes('url: "./openapi.json"'), swagger);
      assert.ok(swagger.includes('src="./docs/assets/swagger-ui-bundle.'), swagger);
      const elements = (await app.inject({ url: '/v2/reference/' })).body;
      assert.ok(elements.includes('apiDescriptionUrl="../api/openapi.json"'), elements);
      const url = assetUrls(elements)[0]!;
      assert.match(url, /^\.\/assets\/styles\.min\.[0-9a-f]{10}\.css$/);
      assert.equal((await app.inject({ url: resolveFrom('/v2/reference/', url) })).statusCode, 200);
      assert.ok((await app.inject({ url: '/v2/elsewhere' })).body.includes('url: "https://specs.example/api.json"'));
      // `openapi {}` is the default renderer, Scalar, loading the root document.
      const scalar = (await app.inject({ url: '/docs' })).body;
      assert.ok(scalar.includes('Scalar.createApiReference') && scalar.includes('url: "./openapi.json"'), scalar);
    },
  );
});

test('the guard covers the page and its assets', async () => {
  await withApp(
    `${SERVICE}
auth "team" {
  type     = "basic"
  username = "ann"
  password = "secret"
}
endpoint "GET /internal/docs" {
  auth = [auth.team]
  openapi { ui = "swagger" }
}
`,
    async (app) => {
      const authorization = `Basic ${Buffer.from('ann:secret').toString('base64')}`;
      const page = await app.inject({ url: '/internal/docs', headers: { authorization } });
      assert.equal(page.statusCode, 200);
      for (const url of assetUrls(page.body)) {
        const path = resolveFrom('/internal/docs', url);
        assert.equal((await app.inject({ url: path })).statusCode, 401, path);
        assert.equal((await app.inject({ url: path, headers: { authorization } })).statusCode, 200, path);
      }
      assert.equal((await app.inject({ url: '/internal/docs' })).statusCode, 401);
    },
  );
});

test('a template: values HTML-escaped, the description as Markdown with raw HTML escaped, the spec paths; both forms', async () => {
  await withApp(
    `${SERVICE}
endpoint "GET /openapi.json" {
  openapi { format = "json" }
}
endpoint "GET /api/openapi.yaml" {
  openapi { format = "yaml" }
}
endpoint "GET /api/page" {
  openapi {
    template = <<EOT
<title>{{ .Title }} {{.Version}}</title>
<main>{{ .Description }}</main>
<a href="{{ .SpecURL }}">json</a> <a href="{{- .SpecYAMLURL -}} ">yaml</a>
EOT
  }
}
endpoint "GET /labelled" {
  openapi "template" {
    inline = "<h1>{{ .Title }}</h1>"
  }
}
`,
    async (app) => {
      const res = await app.inject({ url: '/api/page' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.equal(
        res.body,
        '<title>Pets &amp; &lt;Friends&gt; 2.0.1</title>\n' +
          '<main><p>Pets, <strong>kindly</strong> served.</p>\n&lt;script&gt;alert(1)&lt;/script&gt;</main>\n' +
          '<a href="/openapi.json">json</a> <a href="/api/openapi.yaml">yaml</a>\n',
      );
      assert.equal((await app.inject({ url: '/labelled' })).body, '<h1>Pets &amp; &lt;Friends&gt;</h1>');
    },
  );
});

test('template_file: read from the manifest directory at boot, served as written; a path leading out of it is refused', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-docs-template-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'pages'));
  writeFileSync(join(dir, 'pages', 'index.html'), '<h1>{{ .Title }}</h1>\n<p>v{{ .Version }}</p>\n');
  writeFileSync(
    join(dir, 'api.hcl'),
    `${SERVICE}endpoint "GET /page" {\n  openapi { template_file = "pages/index.html" }\n}\nendpoint "GET /labelled" {\n  openapi "template" { file = "./pages/../pages/index.html" }\n}\n`,
  );
  const loaded = await loadServiceModel(dir);
  assert.deepEqual(
    loaded.diagnostics.map((d) => d.summary),
    [],
  );
  const app = await serveModel(loaded.model!);
  try {
    for (const url of ['/page', '/labelled']) assert.equal((await app.inject({ url })).body, '<h1>Pets &amp; &lt;Friends&gt;</h1>\n<p>v2.0.1</p>\n');
  } finally {
    await app.close();
  }

  writeFileSync(join(dir, 'api.hcl'), `endpoint "GET /page" {\n  openapi { template_file = "../outside.html" }\n}\n`);
  const outside = await loadServiceModel(dir);
  assert.deepEqual(
    outside.diagnostics.map((d) => [d.summary, d.subject?.start.line]),
    [['File outside the manifest directory', 2]],
  );
});
