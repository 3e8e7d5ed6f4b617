/**
 * Documentation page templates (SPEC.md §4.2): HTML with Go-template variables, `{{ .Title }}`,
 * `{{ .Version }}`, `{{ .Description }}`, `{{ .SpecURL }}`, `{{ .SpecYAMLURL }}`. Parsed once at boot;
 * anything else between `{{` and `}}` is a boot error at its line, never left in the page. Go's trim
 * markers are honoured (`{{- .Title -}}` removes the white space around the action). Values are
 * HTML-escaped; the description is Markdown rendered to HTML (markdown.ts).
 */
import { didYouMean } from '../diag/index.js';
import { escapeHtml } from './html.js';

export const TEMPLATE_VARIABLES = ['Title', 'Version', 'Description', 'SpecURL', 'SpecYAMLURL'] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

/** 1-based line and column of a place in the template text, and its offset (UTF-16 units). */
export interface TemplatePosition {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

export interface TemplateProblem {
  readonly kind: 'unknown-variable' | 'invalid-action' | 'unclosed-action';
  /** The action as written, `{{` to `}}` (to the end of its line when unclosed). */
  readonly action: string;
  readonly at: TemplatePosition;
  /** For an unknown variable: its name, and the known one it is closest to. */
  readonly name?: string;
  readonly suggestion?: TemplateVariable;
}

type Piece = { readonly text: string } | { readonly variable: TemplateVariable };

export interface ParsedTemplate {
  readonly pieces: readonly Piece[];
  /** The variables the template uses. */
  readonly uses: ReadonlySet<TemplateVariable>;
}

/** The values of a page; plain text (escaped when written), the description as its HTML. */
export interface TemplateValues {
  readonly title: string;
  readonly version: string;
  readonly descriptionHtml: string;
  readonly specUrl: string;
  readonly specYamlUrl: string;
}

const ACTION = /^\.([A-Za-z_][A-Za-z0-9_]*)$/;
const KNOWN: ReadonlySet<string> = new Set(TEMPLATE_VARIABLES);

export function parseTemplate(source: string): { template: ParsedTemplate; problems: TemplateProblem[] } {
  const pieces: Piece[] = [];
  const problems: TemplateProblem[] = [];
  const uses = new Set<TemplateVariable>();
  let text = '';
  let trimNext = false;
  let i = 0;
  const addText = (t: string) => {
    text += trimNext ? t.replace(/^\s+/, '') : t;
    trimNext = false;
  };
  while (i < source.length) {
    const open = source.indexOf('{{', i);
    if (open === -1) {
      addText(source.slice(i));
      break;
    }
    addText(source.slice(i, open));
    const close = source.indexOf('}}', open + 2);
    if (close === -1) {
      const lineEnd = source.indexOf('\n', open);
      problems.push({ kind: 'unclosed-action', action: source.slice(open, lineEnd === -1 ? undefined : lineEnd), at: positionOf(source, open) });
      break;
    }
    let inner = source.slice(open + 2, close);
    const action = source.slice(open, close + 2);
    i = close + 2;
    // Go: `{{- ` trims the white space before the action, ` -}}` the white space after it.
    if (/^-\s/.test(inner)) {
      text = text.replace(/\s+$/, '');
      inner = inner.slice(1);
    }
    if (/\s-$/.test(inner)) {
      trimNext = true;
      inner = inner.slice(0, -1);
    }
    const name = ACTION.exec(inner.trim())?.[1];
    if (name !== undefined && KNOWN.has(name)) {
      if (text !== '') pieces.push({ text });
      text = '';
      pieces.push({ variable: name as TemplateVariable });
      uses.add(name as TemplateVariable);
    } else if (name !== undefined) {
      const suggestion = didYouMean(name, TEMPLATE_VARIABLES) as TemplateVariable | undefined;
      problems.push({ kind: 'unknown-variable', action, name, at: positionOf(source, open), ...(suggestion ? { suggestion } : {}) });
    } else {
      problems.push({ kind: 'invalid-action', action, at: positionOf(source, open) });
    }
  }
  if (text !== '') pieces.push({ text });
  return { template: { pieces, uses }, problems };
}

export function renderTemplate(template: ParsedTemplate, values: TemplateValues): string {
  return template.pieces.map((piece) => ('text' in piece ? piece.text : variableValue(piece.variable, values))).join('');
}

function variableValue(variable: TemplateVariable, values: TemplateValues): string {
  switch (variable) {
    case 'Title':
      return escapeHtml(values.title);
    case 'Version':
      return escapeHtml(values.version);
    case 'Description':
      return values.descriptionHtml;
    case 'SpecURL':
      return escapeHtml(values.specUrl);
    case 'SpecYAMLURL':
      return escapeHtml(values.specYamlUrl);
  }
}

function positionOf(source: string, offset: number): TemplatePosition {
  let line = 1;
  let lineStart = 0;
  for (let i = source.indexOf('\n'); i !== -1 && i < offset; i = source.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1, offset };
}
