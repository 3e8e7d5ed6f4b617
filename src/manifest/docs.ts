/**
 * An endpoint's `openapi` block: what a documentation endpoint serves (DECISIONS.md §5).
 *
 *   openapi { ui = "scalar" }                 renderer page (default scalar)
 *   openapi { format = "json" | "yaml" }      the document itself
 *   openapi { template = "<html>" }           custom page, inline   (or template_file = "x.html")
 *   openapi "spec" { format }   openapi "ui" { renderer, spec_url }   openapi "template" { file | inline, spec_url }
 */
import type { Block } from '../hcl/index.js';
import { didYouMean } from '../diag/index.js';
import type { DocsConfig, UiRenderer } from './types.js';
import { decodeBody, blockHeader, type BodySchema } from './body.js';
import { resolveFile, type FileAccess } from './files.js';
import type { DecodeScope } from './scope.js';
import { readChoice, readString } from './values.js';

export const RENDERERS: readonly UiRenderer[] = ['scalar', 'elements', 'swagger', 'redoc'];
const FORMATS = ['json', 'yaml'] as const;
const LABELS = ['spec', 'ui', 'template'];

const BODIES: Record<string, BodySchema> = {
  '': { attributes: { ui: {}, format: {}, template: {}, template_file: {}, spec_url: {} } },
  spec: { attributes: { format: {} } },
  ui: { attributes: { renderer: {}, spec_url: {} } },
  template: { attributes: { file: {}, inline: {}, spec_url: {} } },
};

export function decodeDocs(block: Block, scope: DecodeScope, files: FileAccess): DocsConfig | undefined {
  const s = scope.enter(block);
  const label = block.labels[0] ?? '';
  const schema = BODIES[label];
  if (!schema) {
    const suggestion = didYouMean(label, LABELS);
    s.error('Unknown openapi block', block.labelRanges[0], {
      detail: `An endpoint's openapi block is unlabelled or labelled "spec", "ui" or "template"; got "${label}".`,
      ...(suggestion ? { suggestion } : {}),
    });
    return undefined;
  }
  const { attrs } = decodeBody(block.body, schema, s, block);
  const range = block.range;
  const template = (inline: string | undefined, fileAttr: ReturnType<typeof attrs.get>, inlineAttr: ReturnType<typeof attrs.get>): DocsConfig | undefined => {
    if (inline !== undefined && fileAttr) {
      s.error('Conflicting template', fileAttr.nameRange, { detail: 'Give the template inline or as a file, not both.' });
      return undefined;
    }
    if (inline !== undefined) {
      const expr = inlineAttr!.expr;
      return { kind: 'template', inline, source: { range: expr.range, heredoc: expr.kind === 'Template' && expr.heredoc }, range };
    }
    const name = readString(fileAttr, s);
    if (name === undefined) return undefined;
    const f = resolveFile(fileAttr!, name, files.rootDir, files, s);
    return f && { kind: 'template', file: f.path, ...(f.text !== undefined ? { inline: f.text } : {}), range };
  };

  switch (label) {
    case 'spec':
      return { kind: 'spec', format: readChoice(attrs.get('format'), s, FORMATS) ?? 'json', range };
    case 'ui': {
      const specUrl = readString(attrs.get('spec_url'), s);
      return { kind: 'ui', renderer: readChoice(attrs.get('renderer'), s, RENDERERS) ?? 'scalar', ...(specUrl !== undefined ? { specUrl } : {}), range };
    }
    case 'template': {
      if (!attrs.has('inline') && !attrs.has('file')) {
        s.error('Missing template', blockHeader(block), { detail: 'openapi "template" needs `file` or `inline`.' });
        return undefined;
      }
      const page = template(readString(attrs.get('inline'), s), attrs.get('file'), attrs.get('inline'));
      // hclapi's openapi "template" { spec_url }: the document the page loads, as a ui's spec_url.
      const specUrl = readString(attrs.get('spec_url'), s);
      return page?.kind === 'template' && specUrl !== undefined ? { ...page, specUrl } : page;
    }
  }

  // Unlabelled: exactly one of format / ui / template(_file); ui wins over a template (SPEC.md §4.2).
  const format = attrs.get('format');
  const ui = attrs.get('ui');
  const hasTemplate = attrs.has('template') || attrs.has('template_file');
  if (format && (ui || hasTemplate)) {
    s.error('Conflicting openapi settings', format.nameRange, {
      detail: '`format` serves the document itself; it cannot be combined with `ui` or a template.',
    });
    return undefined;
  }
  if (format) return { kind: 'spec', format: readChoice(format, s, FORMATS) ?? 'json', range };
  if (hasTemplate && !ui) return template(readString(attrs.get('template'), s), attrs.get('template_file'), attrs.get('template'));
  if (hasTemplate && ui) {
    s.warning('Template ignored', (attrs.get('template') ?? attrs.get('template_file'))!.nameRange, {
      detail: 'A template is used only when `ui` is omitted; this endpoint serves the `ui` renderer.',
    });
  }
  const specUrl = readString(attrs.get('spec_url'), s);
  return { kind: 'ui', renderer: readChoice(ui, s, RENDERERS) ?? 'scalar', ...(specUrl !== undefined ? { specUrl } : {}), range };
}
