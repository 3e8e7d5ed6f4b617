/**
 * Documentation pages refused at boot, by compileService (so by `svc serve` and `svc check` alike),
 * each with its code and the line it is about: an unknown template variable or an invalid action (in
 * a quoted string, in a heredoc at its manifest line, in a template file at its line there), a
 * template naming the path of a spec endpoint the manifest lacks, a renderer whose bundle is not
 * installed, a renderer page whose path ends in a parameter.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeOf, type Diagnostic } from '../../src/diag/index.js';
import { planDocsPage } from '../../src/docs/index.js';
import type { DocsEndpointModel } from '../../src/model/index.js';
import { buildServiceModel, compileService, loadServiceModel } from '../../src/steps/index.js';
import { svc } from '../cli/helpers.js';

function compiled(source: string): Diagnostic[] {
  const built = buildServiceModel([{ filename: 'main.hcl', source }]);
  assert.ok(built.model, built.diagnostics.map((d) => d.summary).join('; '));
  return [...compileService(built.model).diagnostics];
}

const brief = (d: Diagnostic) => [codeOf(d), d.subject?.filename, d.subject?.start.line, d.subject?.start.column];

test('an unknown variable: in a quoted string the string, in a heredoc its manifest line and column; a suggestion', () => {
  const diagnostics = compiled(`
endpoint "GET /a" {
  openapi { template = "<h1>{{ .Titel }}</h1>" }
}
endpoint "GET /b" {
  openapi {
    template = <<EOT
<html>
  <h1>{{ .title }}</h1>
    <p>{{ .Descripton }} {{ if .X }}</p> {{ Version }}
</html>
EOT
  }
}`);
  assert.deepEqual(diagnostics.map(brief), [
    ['SVC_DOCS_UNKNOWN_TEMPLATE_VARIABLE', 'main.hcl', 3, 24],
    ['SVC_DOCS_UNKNOWN_TEMPLATE_VARIABLE', 'main.hcl', 9, 7],
    ['SVC_DOCS_UNKNOWN_TEMPLATE_VARIABLE', 'main.hcl', 10, 8],
    ['SVC_DOCS_INVALID_TEMPLATE_ACTION', 'main.hcl', 10, 26],
    ['SVC_DOCS_INVALID_TEMPLATE_ACTION', 'main.hcl', 10, 42],
  ]);
  assert.deepEqual(
    diagnostics.map((d) => d.suggestion),
    ['{{ .Title }}', '{{ .Title }}', '{{ .Description }}', undefined, undefined],
  );
  assert.equal(
    diagnostics[0]!.detail,
    '{{ .Titel }} (line 1 of the template) names .Titel; a template knows .Title, .Version, .Description, .SpecURL and .SpecYAMLURL.',
  );
  assert.match(diagnostics[3]!.detail!, /^\{\{ if \.X \}\} \(line 3 of the template\): an action of a documentation template is one variable/);
  assert.deepEqual(diagnostics[0]!.path, ['endpoint "GET /a"']);
});

test('a template file: the problem at its line in that file; an unclosed action; svc check prints it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-docs-plan-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'page.html'), '<p>\n  {{ .Version }}\n  {{ .Nope }}\n{{ .Title\n');
  writeFileSync(join(dir, 'api.hcl'), 'endpoint "GET /page" {\n  openapi "template" { file = "page.html" }\n}\n');
  const loaded = await loadServiceModel(dir);
  const diagnostics = compileService(loaded.model!).diagnostics;
  const file = join(dir, 'page.html');
  assert.deepEqual(
    diagnostics.map((d) => [codeOf(d), d.subject?.filename.endsWith('page.html'), d.subject?.start.line, d.subject?.start.column]),
    [
      ['SVC_DOCS_UNKNOWN_TEMPLATE_VARIABLE', true, 3, 3],
      ['SVC_DOCS_INVALID_TEMPLATE_ACTION', true, 4, 1],
    ],
  );
  assert.equal(diagnostics[1]!.detail, '{{ .Title (line 4 of the template) has no closing }}.');
  const check = await svc(['check', '-c', dir]);
  assert.equal(check.code, 1);
  assert.ok(check.stderr.includes('Error: Unknown template variable'), check.stderr);
  // Outside the working directory, the file is named by its absolute path.
  assert.ok(check.stderr.includes(`  on ${file} line 3, in endpoint "GET /page":`), check.stderr);
});

test('.SpecURL and .SpecYAMLURL need a spec endpoint of their format (without a path parameter)', () => {
  const diagnostics = compiled(`
endpoint "GET /{v}/openapi.json" {
  openapi { format = "json" }
}
endpoint "GET /page" {
  openapi { template = "<a href='{{ .SpecURL }}'>{{ .SpecYAMLURL }}</a>" }
}`);
  assert.deepEqual(
    diagnostics.map((d) => [codeOf(d), d.subject?.start.line]),
    [
      ['SVC_DOCS_TEMPLATE_WITHOUT_SPEC', 6],
      ['SVC_DOCS_TEMPLATE_WITHOUT_SPEC', 6],
    ],
  );
  assert.match(diagnostics[0]!.detail!, /\{\{ \.SpecURL \}\}, the path of the JSON spec endpoint, .*openapi \{ format = "json" \}/);
  assert.match(diagnostics[1]!.detail!, /\{\{ \.SpecYAMLURL \}\}, the path of the YAML spec endpoint/);
});

test('a renderer page whose path ends in a parameter or holds a catch-all is refused; a parameter before the end is fine', () => {
  const diagnostics = compiled(`
endpoint "GET /docs/{version}" {
  openapi { ui = "swagger" }
}
endpoint "GET /files/{rest...}" {
  openapi { ui = "redoc" }
}
endpoint "GET /v/{version}/docs" {
  openapi { ui = "redoc" }
}
endpoint "GET /t/{version}" {
  openapi { template = "<p>{{ .Version }}</p>" }
}`);
  assert.deepEqual(
    diagnostics.map((d) => [codeOf(d), d.subject?.start.line]),
    [
      ['SVC_DOCS_PAGE_PATH_PARAMETER', 2],
      ['SVC_DOCS_PAGE_PATH_PARAMETER', 5],
    ],
  );
});

test('a renderer whose bundle is not installed is refused with what is missing and how to fetch it', (t) => {
  const empty = mkdtempSync(join(tmpdir(), 'svc-docs-vendor-'));
  t.after(() => rmSync(empty, { recursive: true, force: true }));
  const built = buildServiceModel([{ filename: 'main.hcl', source: 'endpoint "GET /docs" {\n  openapi { ui = "elements" }\n}\n' }]);
  const endpoint = built.model!.endpoints[0] as DocsEndpointModel;
  const plan = planDocsPage(endpoint, built.model!.endpoints, { vendorRoot: empty });
  assert.equal(plan.page, undefined);
  assert.deepEqual(
    plan.diagnostics.map((d) => [codeOf(d), d.subject?.start.line]),
    [['SVC_DOCS_RENDERER_NOT_INSTALLED', 2]],
  );
  assert.ok(plan.diagnostics[0]!.detail!.includes(join(empty, '@stoplight', 'elements@9.0.25', 'web-components.min.js')), plan.diagnostics[0]!.detail);
  assert.match(plan.diagnostics[0]!.detail!, /npm run build/);
  // The installed bundles: the same endpoint is planned.
  assert.deepEqual(planDocsPage(endpoint, built.model!.endpoints).page, { kind: 'ui', renderer: 'elements' });
});

test('an in-memory build does not read a template file: the page is refused, not served empty', () => {
  assert.deepEqual(
    compiled('endpoint "GET /page" {\n  openapi { template_file = "page.html" }\n}\n').map((d) => [codeOf(d), d.summary]),
    [['SVC_LOAD_REFERENCED_FILE_UNREADABLE', 'Cannot read file']],
  );
});
