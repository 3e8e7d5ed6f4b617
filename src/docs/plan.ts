/**
 * What a documentation page will serve, decided at boot with every problem as a diagnostic
 * (src/steps/compile.ts calls this for `svc serve` and `svc check` alike): a renderer page and where
 * its document comes from, or a parsed template and the spec URLs it names. Spec endpoints are not
 * pages (src/http/docs.ts serves them as they are).
 */
import { isAbsolute, relative } from 'node:path';
import type { Diagnostic, Range } from '../diag/index.js';
import type { DocsEndpointModel, EndpointModel, UiRenderer } from '../model/index.js';
import { BUNDLES } from './bundles.js';
import { parseTemplate, type ParsedTemplate, type TemplateProblem } from './template.js';
import { nearestPath, relativeUrl } from './urls.js';
import { missingBundleFiles } from './vendor.js';

export type DocsPage =
  | {
      readonly kind: 'ui';
      readonly renderer: UiRenderer;
      /** `spec_url` as written, else the nearest JSON spec endpoint relative to the page; absent: embedded. */
      readonly specUrl?: string;
    }
  | {
      readonly kind: 'template';
      readonly template: ParsedTemplate;
      /** The route paths of the nearest JSON and YAML spec endpoints, when declared. */
      readonly specUrl?: string;
      readonly specYamlUrl?: string;
    };

export interface DocsPlan {
  /** Absent for a spec endpoint, and when a diagnostic is an error. */
  readonly page?: DocsPage;
  readonly diagnostics: readonly Diagnostic[];
}

export interface PlanOptions {
  /** Where the renderer bundles are looked for (vendor.ts); the installed ones by default. */
  readonly vendorRoot?: string;
}

/** The page of a documentation endpoint; `endpoints` are the service's, to find its spec endpoints. */
export function planDocsPage(endpoint: DocsEndpointModel, endpoints: readonly EndpointModel[], options: PlanOptions = {}): DocsPlan {
  const { docs } = endpoint;
  if (docs.kind === 'spec') return { diagnostics: [] };
  const specPaths = (format: 'json' | 'yaml') =>
    endpoints.flatMap((e) => (e.kind === 'docs' && e.docs.kind === 'spec' && e.docs.format === format ? [e.path] : []));
  const diagnostics: Diagnostic[] = [];
  const error = (summary: string, detail: string, subject: Range = docs.range) =>
    diagnostics.push({ severity: 'error', summary, detail, subject, path: endpoint.blockPath });

  if (docs.kind === 'ui') {
    const missing = missingBundleFiles(docs.renderer, options.vendorRoot);
    if (missing.length > 0) {
      const { package: name, version } = BUNDLES[docs.renderer];
      error(
        'Documentation renderer not installed',
        `The ${docs.renderer} renderer's files (${name}@${version}) are not installed: ${missing.join(', ')} is missing. ` +
          '`npm install` and `npm run build` fetch them (scripts/fetch-doc-renderers.ts).',
      );
    }
    if (relativeUrl(endpoint.path, `${endpoint.path}/assets/x`) === undefined) {
      error(
        'Documentation page path ends in a parameter',
        `The ${docs.renderer} page's assets are served below its path, and the page names them relative to its own URL, which ${endpoint.path} does not fix. End the path with a literal segment.`,
        endpoint.labelRange,
      );
    }
    if (diagnostics.length > 0) return { diagnostics };
    const nearest = nearestPath(endpoint.path, specPaths('json'));
    const specUrl = docs.specUrl ?? (nearest !== undefined ? relativeUrl(endpoint.path, nearest) : undefined);
    return { page: { kind: 'ui', renderer: docs.renderer, ...(specUrl !== undefined ? { specUrl } : {}) }, diagnostics };
  }

  if (docs.inline === undefined) {
    error('Cannot read file', `Template file ${docs.file ?? ''} was not read: in-memory builds do not read the files a manifest references.`);
    return { diagnostics };
  }
  const { template, problems } = parseTemplate(docs.inline);
  for (const problem of problems) {
    diagnostics.push({
      severity: 'error',
      ...templateProblemText(problem),
      subject: problemRange(problem, docs),
      path: endpoint.blockPath,
      ...(problem.suggestion ? { suggestion: `{{ .${problem.suggestion} }}` } : {}),
    });
  }
  const specUrl = docs.specUrl ?? nearestPath(endpoint.path, specPaths('json'));
  const specYamlUrl = nearestPath(endpoint.path, specPaths('yaml'));
  for (const [variable, url, format] of [
    ['SpecURL', specUrl, 'json'],
    ['SpecYAMLURL', specYamlUrl, 'yaml'],
  ] as const) {
    if (template.uses.has(variable) && url === undefined) {
      error(
        'No spec endpoint for the template',
        `The template uses {{ .${variable} }}, the path of the ${format.toUpperCase()} spec endpoint, but the manifest declares none: add an endpoint with openapi { format = "${format}" } (its path must have no parameter).`,
      );
    }
  }
  if (diagnostics.length > 0) return { diagnostics };
  return {
    page: { kind: 'template', template, ...(specUrl !== undefined ? { specUrl } : {}), ...(specYamlUrl !== undefined ? { specYamlUrl } : {}) },
    diagnostics,
  };
}

function templateProblemText(problem: TemplateProblem): { summary: string; detail: string } {
  const where = `line ${problem.at.line} of the template`;
  switch (problem.kind) {
    case 'unknown-variable':
      return {
        summary: 'Unknown template variable',
        detail: `${problem.action} (${where}) names .${problem.name}; a template knows .Title, .Version, .Description, .SpecURL and .SpecYAMLURL.`,
      };
    case 'invalid-action':
      return {
        summary: 'Invalid template action',
        detail: `${problem.action} (${where}): an action of a documentation template is one variable, such as {{ .Title }}.`,
      };
    case 'unclosed-action':
      return { summary: 'Invalid template action', detail: `${problem.action} (${where}) has no closing }}.` };
  }
}

type TemplateDocs = Extract<DocsEndpointModel['docs'], { kind: 'template' }>;

/**
 * Where a problem is: its line in the template file; in a heredoc, the manifest line (the text
 * starts on the line after `<<EOT`); in a quoted string, whose lines are `\n` escapes on one source
 * line, the string itself (the detail names the template's line).
 */
function problemRange(problem: TemplateProblem, docs: TemplateDocs): Range {
  const { line, column } = problem.at;
  if (docs.file !== undefined) {
    const shown = relative(process.cwd(), docs.file);
    const filename = shown.startsWith('..') || isAbsolute(shown) ? docs.file : shown;
    const start = { line, column, byte: problem.at.offset };
    return { filename, start, end: { ...start, column: column + problem.action.length, byte: start.byte + problem.action.length } };
  }
  const source = docs.source;
  if (source === undefined) return docs.range;
  if (!source.heredoc) return source.range;
  const start = { line: source.range.start.line + line, column, byte: source.range.start.byte };
  return { filename: source.range.filename, start, end: { ...start, column: column + problem.action.length } };
}
