/**
 * `{{ .Description }}`: the API description, Markdown rendered to HTML by `marked` (CommonMark and
 * GitHub's extensions). Raw HTML written in the Markdown is escaped, so it shows as text: the
 * description is documentation, not a way to put markup or scripts into the page. Links whose
 * scheme could run code (`javascript:`, `vbscript:`, `data:`) keep their text and lose the link.
 */
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from './html.js';

const UNSAFE_SCHEME = /^\s*(?:javascript|vbscript|data):/i;

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(token.text);
    },
    link(token: Tokens.Link): string | false {
      return UNSAFE_SCHEME.test(token.href) ? (this.parser.parseInline(token.tokens) as string) : false;
    },
    image(token: Tokens.Image): string | false {
      return UNSAFE_SCHEME.test(token.href) ? escapeHtml(token.text) : false;
    },
  },
});

export function markdownToHtml(markdown: string): string {
  return marked.parse(markdown, { async: false }) as string;
}
