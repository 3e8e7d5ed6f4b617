/**
 * The pieces of a documentation page: the template language (the five variables, spacing and Go's
 * trim markers, escaping, problems with their line and column), the description's Markdown (raw HTML
 * escaped, links that would run code unlinked), the URLs a page writes (relative to the page; the
 * nearest spec endpoint by path), and JSON inside a `<script>`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml, jsonForScript, scriptSafeJson } from '../../src/docs/html.js';
import { markdownToHtml } from '../../src/docs/markdown.js';
import { parseTemplate, renderTemplate, type TemplateValues } from '../../src/docs/template.js';
import { nearestPath, relativeUrl } from '../../src/docs/urls.js';

const VALUES: TemplateValues = {
  title: 'A & <B>',
  version: '1.0"2',
  descriptionHtml: '<p>described</p>',
  specUrl: "/open'api.json",
  specYamlUrl: '/openapi.yaml',
};

function render(source: string, values = VALUES): string {
  const { template, problems } = parseTemplate(source);
  assert.deepEqual(problems, []);
  return renderTemplate(template, values);
}

test('the five variables, with or without spaces; values escaped, the description as given HTML', () => {
  assert.equal(
    render('<h1>{{ .Title }}</h1>{{.Version}}|{{  .Description  }}|{{ .SpecURL }}|{{ .SpecYAMLURL }}'),
    '<h1>A &amp; &lt;B&gt;</h1>1.0&quot;2|<p>described</p>|/open&#39;api.json|/openapi.yaml',
  );
  assert.deepEqual([...parseTemplate('{{ .Title }}{{ .SpecURL }}{{ .Title }}').template.uses].sort(), ['SpecURL', 'Title']);
  assert.equal(render('no actions at all: { { } } }}'), 'no actions at all: { { } } }}');
  assert.equal(render(''), '');
});

test("Go's trim markers remove the white space beside the action, and only with their space", () => {
  assert.equal(render('<a>\n  {{- .Version -}}\n  </a>'), '<a>1.0&quot;2</a>');
  assert.equal(render('x {{- .Version }} y'), 'x1.0&quot;2 y');
  assert.equal(render('x {{ .Version -}} \n y'), 'x 1.0&quot;2y');
});

test('problems: an unknown variable (with the closest known one), any other action, an unclosed action; each at its line and column', () => {
  const { problems } = parseTemplate('<p>\n  {{ .Titel }} {{ .Nothinglike }}\n{{ if .Title }}{{ Title }}{{}}\n  {{ .Version');
  assert.deepEqual(
    problems.map((p) => [p.kind, p.action, p.at.line, p.at.column, p.name, p.suggestion]),
    [
      ['unknown-variable', '{{ .Titel }}', 2, 3, 'Titel', 'Title'],
      ['unknown-variable', '{{ .Nothinglike }}', 2, 16, 'Nothinglike', undefined],
      ['invalid-action', '{{ if .Title }}', 3, 1, undefined, undefined],
      ['invalid-action', '{{ Title }}', 3, 16, undefined, undefined],
      ['invalid-action', '{{}}', 3, 27, undefined, undefined],
      ['unclosed-action', '{{ .Version', 4, 3, undefined, undefined],
    ],
  );
  // Case matters, as in Go templates.
  assert.equal(parseTemplate('{{ .title }}').problems[0]?.suggestion, 'Title');
});

test('the description: Markdown to HTML, raw HTML shown as text, links that would run code unlinked', () => {
  assert.equal(
    markdownToHtml('Hello **world**, see [the API](https://example.com/a?b=1&c=2).'),
    '<p>Hello <strong>world</strong>, see <a href="https://example.com/a?b=1&amp;c=2">the API</a>.</p>\n',
  );
  assert.equal(markdownToHtml('<script>alert(1)</script>'), '&lt;script&gt;alert(1)&lt;/script&gt;');
  assert.equal(markdownToHtml('a <b onclick="x()">bold</b> word'), '<p>a &lt;b onclick=&quot;x()&quot;&gt;bold&lt;/b&gt; word</p>\n');
  assert.equal(markdownToHtml('[click](javascript:alert(1)) and [data](DATA:text/html,x)'), '<p>click and data</p>\n');
  assert.equal(markdownToHtml('![x](javascript:alert(1))'), '<p>x</p>\n');
  assert.equal(markdownToHtml('- one\n- `two`\n'), '<ul>\n<li>one</li>\n<li><code>two</code></li>\n</ul>\n');
});

test('URLs relative to the page: assets below it, spec endpoints elsewhere; none where a parameter hides the value', () => {
  const cases: [string, string, string | undefined][] = [
    ['/docs', '/docs/assets/a.js', './docs/assets/a.js'],
    ['/docs/', '/docs/assets/a.js', './assets/a.js'],
    ['/docs', '/openapi.json', './openapi.json'],
    ['/api/v1/docs', '/openapi.json', '../../openapi.json'],
    ['/api/v1/docs', '/api/openapi.json', '../openapi.json'],
    ['/api/docs', '/api/v1/openapi.json', './v1/openapi.json'],
    ['/', '/openapi.json', './openapi.json'],
    ['/docs', '/', './'],
    ['/v/{x}/docs', '/v/{x}/docs/assets/a.js', './docs/assets/a.js'],
    ['/v/{x}/docs', '/openapi.json', '../../openapi.json'],
    ['/docs/{x}', '/docs/{x}/assets/a.js', undefined],
    ['/files/{rest...}', '/openapi.json', undefined],
  ];
  for (const [from, to, expected] of cases) {
    assert.equal(relativeUrl(from, to), expected, `${from} -> ${to}`);
    if (expected !== undefined)
      assert.equal(new URL(expected, `http://h${from.replace(/\{x\}/g, 'X')}`).pathname, to.replace(/\{x\}/g, 'X'), `${from} -> ${to} resolves`);
  }
});

test('the nearest spec endpoint: the longest run of shared leading segments, the first declared on a tie, none with a parameter', () => {
  assert.equal(nearestPath('/docs', ['/openapi.json', '/v2/openapi.json']), '/openapi.json');
  assert.equal(nearestPath('/v2/docs', ['/openapi.json', '/v2/openapi.json']), '/v2/openapi.json');
  assert.equal(nearestPath('/v2/admin/docs', ['/v2/a.json', '/v2/b.json', '/v2/admin/{id}/c.json']), '/v2/a.json');
  assert.equal(nearestPath('/docs', ['/{v}/openapi.json']), undefined);
  assert.equal(nearestPath('/docs', []), undefined);
});

test('HTML escaping and JSON inside <script>', () => {
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  const value = { s: '</script><!-- \u2028\u2029 <b>' };
  const json = jsonForScript(value);
  assert.ok(!json.includes('<') && !json.includes('\u2028') && !json.includes('\u2029'), json);
  assert.deepEqual(JSON.parse(json), value);
  assert.equal(scriptSafeJson(JSON.stringify(value)), json);
});
