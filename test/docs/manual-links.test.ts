/**
 * The manual (docs/*.md, docs/README.md its table of contents) and the README that leads into it:
 * every relative link reaches a file of the repository, every `#anchor` a heading of the page it
 * names (by GitHub's rules for heading ids), and every page of docs/ is listed in the table of
 * contents, so a page renamed, a heading reworded or a page forgotten fails here by name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '../paths.js';

const DOCS = join(ROOT, 'docs');
const PAGES = [
  join(ROOT, 'README.md'),
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(DOCS, f)),
];

/** The lines of a Markdown text that are prose, not inside a fenced code block (``` or ~~~, indented or not). */
function proseLines(text: string): { line: string; number: number }[] {
  const out: { line: string; number: number }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, i) => {
    const open = /^\s*(`{3,}|~{3,})/.exec(line);
    if (open) {
      const mark = open[1]!;
      if (fence === undefined) fence = mark;
      else if (mark[0] === fence[0] && mark.length >= fence.length) fence = undefined;
      return;
    }
    if (fence === undefined) out.push({ line, number: i + 1 });
  });
  return out;
}

/**
 * GitHub's id for a heading: its text as rendered (links reduced to their text, code and emphasis
 * marks gone), lower-cased, every character that is not a letter, digit, space, `-` or `_` dropped,
 * spaces made hyphens; a repeated id gets `-1`, `-2`... in order.
 */
function headingIds(text: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    const html = [...line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)].map((m) => m[1]!);
    for (const id of html) ids.add(id);
    if (!heading) continue;
    const rendered = heading[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const base = rendered
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

interface Link {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/** The links of a page: inline `[text](target)` and `![alt](target)`, and reference definitions `[x]: target`. */
function linksOf(file: string): Link[] {
  const links: Link[] = [];
  for (const { line, number } of proseLines(readFileSync(file, 'utf8'))) {
    const prose = line.replace(/(`+)[^`]*?\1/g, '');
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ file, line: number, target: m[1]! });
    const definition = /^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s|$)/.exec(prose);
    if (definition) links.push({ file, line: number, target: definition[1]! });
  }
  return links;
}

/** Why a link does not resolve, or undefined when it does. */
function brokenBecause(link: Link, idsOf: (file: string) => Set<string>): string | undefined {
  const { target } = link;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:: not this test's business
  const hash = target.indexOf('#');
  const path = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const file = path === '' ? link.file : resolve(dirname(link.file), decodeURIComponent(path));
  if (!file.startsWith(ROOT)) return 'leaves the repository';
  if (!existsSync(file)) return `${relative(ROOT, file)} does not exist`;
  if (anchor === undefined || !file.endsWith('.md')) return undefined;
  return idsOf(file).has(anchor) ? undefined : `${relative(ROOT, file)} has no heading with the id "${anchor}"`;
}

test('every relative link and anchor of README.md and docs/*.md resolves', () => {
  const cache = new Map<string, Set<string>>();
  const idsOf = (file: string): Set<string> => {
    let ids = cache.get(file);
    if (ids === undefined) cache.set(file, (ids = headingIds(readFileSync(file, 'utf8'))));
    return ids;
  };
  const broken: string[] = [];
  let checked = 0;
  for (const page of PAGES) {
    for (const link of linksOf(page)) {
      checked++;
      const why = brokenBecause(link, idsOf);
      if (why !== undefined) broken.push(`${relative(ROOT, link.file)}:${link.line}: ${link.target}: ${why}`);
    }
  }
  assert.ok(checked > 100, `only ${checked} links found: is the link pattern still right?`);
  assert.deepEqual(broken, [], `broken links:\n${broken.join('\n')}`);
});

test('every page of docs/ is in the table of contents, each line a link to a page that exists', () => {
  const toc = readFileSync(join(DOCS, 'README.md'), 'utf8');
  const listed = [...toc.matchAll(/^- \[[^\]]+\]\(([^)#]+)\):/gm)].map((m) => m[1]!);
  const pages = readdirSync(DOCS).filter((f) => f.endsWith('.md') && f !== 'README.md');
  assert.deepEqual(
    pages.filter((p) => !listed.includes(p)),
    [],
    'pages missing from docs/README.md (add a line "- [Title](page.md): what it covers")',
  );
  assert.deepEqual(
    listed.filter((p) => !pages.includes(p)),
    [],
    'docs/README.md lists pages that do not exist',
  );
  assert.equal(new Set(listed).size, listed.length, 'docs/README.md lists a page twice');
});

test('each page of docs/ starts with a first-level heading', () => {
  const without = PAGES.filter((p) => !/^# \S/.test(readFileSync(p, 'utf8'))).map((p) => relative(ROOT, p));
  assert.deepEqual(without, []);
});

test("GitHub's heading ids: punctuation dropped, spaces made hyphens, repeats numbered", () => {
  const ids = headingIds(
    [
      '# TLS and HTTP/2',
      '## Work after the response: `after_response`',
      "### PGlite's limits",
      '## LISTEN/NOTIFY: a live feed without Redis',
      '## Connections',
      '```',
      '## Not a heading',
      '```',
      '## Connections',
      '## [Linked](x.md) *emphasis* café',
    ].join('\n'),
  );
  assert.deepEqual(
    [...ids],
    [
      'tls-and-http2',
      'work-after-the-response-after_response',
      'pglites-limits',
      'listennotify-a-live-feed-without-redis',
      'connections',
      'connections-1',
      'linked-emphasis-café',
    ],
  );
});

test('README.md is a landing page under 250 lines that keeps the two commands', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const lines = readme.split('\n').length;
  assert.ok(lines < 250, `README.md has ${lines} lines: the manual's pages are where text goes`);
  assert.match(readme, /^## Two commands$/m);
  assert.match(readme, /^npm install && npx svc serve -c examples\/quickstart$/m);
  assert.match(readme, /^npm test$/m);
  assert.match(readme, /\(docs\/README\.md\)/, 'README.md links the table of contents');
});
