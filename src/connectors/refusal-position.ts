/**
 * Where in a statement an engine's refusal points, for the engines whose errors name a word or a
 * piece of the text instead of an offset (PostgreSQL gives `position` itself):
 *
 * - SQLite: `no such column: titel`, `no such table: main.nope`, `near "FORM": syntax error`;
 * - MySQL/MariaDB: `Unknown column 'titel' in 'SELECT'`, `Table 'shop.nope' doesn't exist`, and
 *   for a syntax error `... near 'FORM issues' at line 2`: the text from the offending token on
 *   (cut at 80 characters), on that line of the statement.
 *
 * The answer is a 1-based character (code point) offset into the statement's text, as PostgreSQL's
 * `position` is, so the sql step places all of them alike; undefined when the text has no such
 * place (the diagnostic then stands on the whole query).
 */
import { sqlSegments } from './sql-segments.js';

/** The first place of the identifier `name` (a qualified `a.b` is looked for as `b`) outside strings and comments. */
export function identifierPosition(text: string, name: string): number | undefined {
  const word = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
  if (word === '') return undefined;
  const lower = word.toLowerCase();
  const code = codeMask(text);
  const boundary = /[\w$]/;
  const isWord = boundary.test(word[0]!) && boundary.test(word.at(-1)!);
  const haystack = text.toLowerCase();
  for (let i = haystack.indexOf(lower); i >= 0; i = haystack.indexOf(lower, i + 1)) {
    if (!code[i]) continue;
    if (isWord && (boundary.test(text[i - 1] ?? ' ') || boundary.test(text[i + word.length] ?? ' '))) continue;
    return characterOffset(text, i) + 1;
  }
  return undefined;
}

/**
 * MySQL's `near '<rest>' at line <n>`: the place where the statement's text continues with `rest`
 * (as the server cut it), preferring one on line `line`; the end of the text for an empty `rest`.
 */
export function continuationPosition(text: string, rest: string, line: number | undefined): number | undefined {
  if (rest === '') return characterOffset(text, text.trimEnd().length) + 1;
  let first: number | undefined;
  for (let i = text.indexOf(rest); i >= 0; i = text.indexOf(rest, i + 1)) {
    first ??= i;
    if (line === undefined || lineOf(text, i) === line) return characterOffset(text, i) + 1;
  }
  return first === undefined ? undefined : characterOffset(text, first) + 1;
}

/**
 * True at each UTF-16 index of `text` that is outside a '…' string and a comment. A double-quoted
 * identifier counts as code: it is what the refusals name (`no such column: "titel"`); in MySQL's
 * default mode `"…"` is a string, where the name is then found rather than missed.
 */
function codeMask(text: string): boolean[] {
  const mask = new Array<boolean>(text.length).fill(false);
  for (const segment of sqlSegments(text)) {
    if (segment.kind === 'code' || segment.kind === 'identifier') mask.fill(true, segment.start, segment.end);
  }
  return mask;
}

/** 1-based line of the UTF-16 index `at`. */
function lineOf(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The number of code points before the UTF-16 index `at`. */
function characterOffset(text: string, at: number): number {
  let count = 0;
  for (let i = 0; i < at; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff) count++;
  }
  return count;
}
