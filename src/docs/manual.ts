/**
 * A page of svc's own manual (docs/*.md, the README) as HTML, for `svc docs`: rendered by `marked`
 * as documentation pages' descriptions are (markdown.ts), with what a manual page needs beside that:
 * headings carry GitHub's ids, so the links between pages (`operations.md#tracing`) land where they
 * do on GitHub; HTML comments (the markers of generated tables) are left out; any other raw HTML is
 * escaped and shown as text, and links whose scheme could run code lose their link.
 */
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from './html.js';

const UNSAFE_SCHEME = /^\s*(?:javascript|vbscript|data):/i;

/**
 * GitHub's id for a heading's text: links reduced to their text, lower-cased, every character that
 * is not a letter, mark, digit, connector, space or hyphen dropped, spaces made hyphens.
 */
function headingSlug(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** A renderer for one page: the ids of its headings are numbered as GitHub numbers repeats (`-1`, `-2`). */
function pageRenderer(): Marked {
  const seen = new Map<string, number>();
  return new Marked({
    gfm: true,
    async: false,
    renderer: {
      heading(token: Tokens.Heading): string {
        const base = headingSlug(token.text);
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        const id = n === 0 ? base : `${base}-${n}`;
        return `<h${token.depth} id="${escapeHtml(id)}">${this.parser.parseInline(token.tokens)}</h${token.depth}>\n`;
      },
      html(token: Tokens.HTML | Tokens.Tag): string {
        return /^\s*<!--[\s\S]*-->\s*$/.test(token.text) ? '' : escapeHtml(token.text);
      },
      link(token: Tokens.Link): string | false {
        return UNSAFE_SCHEME.test(token.href) ? (this.parser.parseInline(token.tokens) as string) : false;
      },
      image(token: Tokens.Image): string | false {
        return UNSAFE_SCHEME.test(token.href) ? escapeHtml(token.text) : false;
      },
    },
  });
}

const STYLE = `
body { margin: 0; font: 16px/1.55 system-ui, sans-serif; color: #1f2328; background: #fff; }
main { max-width: 58rem; margin: 0 auto; padding: 1.5rem 1.25rem 4rem; }
nav { max-width: 58rem; margin: 0 auto; padding: .75rem 1.25rem 0; font-size: .9rem; }
a { color: #0969da; }
code, pre { font: .875rem/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
code { background: #eff1f3; padding: .1em .3em; border-radius: 4px; }
pre { background: #f6f8fa; padding: .9rem 1rem; overflow: auto; border-radius: 6px; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; display: block; overflow: auto; margin: 1rem 0; }
th, td { border: 1px solid #d1d9e0; padding: .35rem .7rem; vertical-align: top; }
h1, h2 { border-bottom: 1px solid #d1d9e0; padding-bottom: .3rem; }
`;

/**
 * The whole HTML page of one Markdown file: its first heading as the title, and a link back to the
 * table of contents (`toc`, relative to the page) unless it is the table of contents itself.
 */
export function manualPage(markdown: string, toc?: string): string {
  const title = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim() ?? 'svc';
  const body = pageRenderer().parse(markdown, { async: false }) as string;
  const nav = toc === undefined ? '' : `<nav><a href="${escapeHtml(toc)}">The svc manual</a></nav>\n`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title.replace(/`/g, ''))}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `${nav}<main>`,
    body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
