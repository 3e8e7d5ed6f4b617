/**
 * The column names of a query's rows, read from its text: the list after a top-level `RETURNING`, or
 * the select list of a `SELECT`. Only what can be named for certain is named (a column, `t.column`,
 * `expr AS alias`, `column::type`, `f(...)`, which Postgres names `f`); a `*` or an unnamed
 * expression makes the row an object of unknown members instead. Types are not guessed: a member's
 * schema is `{}`.
 */
import { sqlSegments } from '../connectors/index.js';

/** Lower-cased column names in select-list order, or undefined when they cannot all be named. */
export function rowColumns(query: string): string[] | undefined {
  const tokens = tokenize(query);
  if (tokens === undefined) return undefined;
  const returning = lastTopLevel(tokens, 'returning');
  let list: Token[];
  if (returning >= 0) {
    list = untilTopLevel(tokens.slice(returning + 1), [';']);
  } else {
    const select = firstTopLevel(tokens, 'select');
    // Only a leading SELECT (a CTE before it aside) names the result's columns.
    if (select < 0 || (select > 0 && !leadsWithCte(tokens, select))) return undefined;
    let rest = tokens.slice(select + 1);
    rest = skipQuantifier(rest);
    list = untilTopLevel(rest, [
      'from',
      'where',
      'group',
      'order',
      'limit',
      'union',
      'intersect',
      'except',
      ';',
      'into',
      'window',
      'having',
      'offset',
      'fetch',
      'for',
    ]);
  }
  const items = splitTopLevel(list);
  if (items.length === 0) return undefined;
  const names: string[] = [];
  for (const item of items) {
    const name = columnName(item);
    if (name === undefined) return undefined;
    names.push(name);
  }
  return names;
}

interface Token {
  readonly text: string;
  /** Lower-cased, for bare words only. */
  readonly word?: string;
  /** Parenthesis depth the token sits at. */
  readonly depth: number;
}

/**
 * Words, quoted identifiers, strings, numbers and single punctuation, comments dropped
 * (src/connectors/sql-segments.ts tells them apart); undefined when the text ends inside a string, a
 * quoted identifier or a block comment.
 */
function tokenize(sql: string): Token[] | undefined {
  const out: Token[] = [];
  let depth = 0;
  for (const segment of sqlSegments(sql)) {
    if (segment.open) return undefined;
    const text = sql.slice(segment.start, segment.end);
    if (segment.kind === 'comment') continue;
    if (segment.kind !== 'code') {
      out.push({ text, depth });
      continue;
    }
    let i = 0;
    while (i < text.length) {
      const c = text[i]!;
      if (/\s/.test(c)) {
        i++;
      } else if (/[A-Za-z_]/.test(c)) {
        const m = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(text.slice(i))!;
        out.push({ text: m[0], word: m[0].toLowerCase(), depth });
        i += m[0].length;
      } else if (c === '(') {
        out.push({ text: c, depth });
        depth++;
        i++;
      } else if (c === ')') {
        depth--;
        out.push({ text: c, depth });
        i++;
      } else if (c === ':' && text[i + 1] === ':') {
        out.push({ text: '::', depth });
        i += 2;
      } else {
        out.push({ text: c, depth });
        i++;
      }
    }
  }
  return out;
}

function firstTopLevel(tokens: readonly Token[], word: string): number {
  return tokens.findIndex((t) => t.depth === 0 && t.word === word);
}

function lastTopLevel(tokens: readonly Token[], word: string): number {
  for (let i = tokens.length - 1; i >= 0; i--) if (tokens[i]!.depth === 0 && tokens[i]!.word === word) return i;
  return -1;
}

/** `WITH x AS (...), y AS (...) SELECT`: everything before the SELECT is the CTE list. */
function leadsWithCte(tokens: readonly Token[], select: number): boolean {
  return tokens[0]?.word === 'with' && tokens.slice(0, select).every((t) => t.depth > 0 || t.word !== 'select');
}

function skipQuantifier(tokens: Token[]): Token[] {
  if (tokens[0]?.word === 'all') return tokens.slice(1);
  if (tokens[0]?.word !== 'distinct') return tokens;
  if (tokens[1]?.word !== 'on') return tokens.slice(1);
  // DISTINCT ON (...): skip to the matching parenthesis.
  const close = tokens.findIndex((t, i) => i > 2 && t.text === ')' && t.depth === 0);
  return close < 0 ? [] : tokens.slice(close + 1);
}

function untilTopLevel(tokens: readonly Token[], stops: readonly string[]): Token[] {
  const end = tokens.findIndex((t) => t.depth === 0 && stops.includes(t.word ?? t.text));
  return end < 0 ? [...tokens] : tokens.slice(0, end);
}

function splitTopLevel(tokens: readonly Token[]): Token[][] {
  const items: Token[][] = [[]];
  for (const t of tokens) {
    if (t.depth === 0 && t.text === ',') items.push([]);
    else items[items.length - 1]!.push(t);
  }
  return items.filter((i) => i.length > 0);
}

/** How Postgres names a select-list item, when that can be told from its text. */
function columnName(item: readonly Token[]): string | undefined {
  const last = item[item.length - 1]!;
  const beforeLast = item[item.length - 2];
  if (beforeLast?.word === 'as') return identifier(last);
  // `column`, `t.column`, `s.t.column`
  if (item.every((t, i) => (i % 2 === 0 ? identifier(t) !== undefined : t.text === '.'))) return identifier(last);
  // `column::type`
  const cast = item.findIndex((t) => t.depth === 0 && t.text === '::');
  if (cast > 0) return columnName(item.slice(0, cast));
  // `f(...)` alone: Postgres names the column after the function.
  if (item[0]?.word !== undefined && item[1]?.text === '(' && last.text === ')' && last.depth === 0 && item.slice(2, -1).every((t) => t.depth > 0)) {
    return item[0].word;
  }
  return undefined;
}

function identifier(t: Token): string | undefined {
  if (t.word !== undefined) return t.word;
  if (t.text.startsWith('"')) return t.text.slice(1, -1).replace(/""/g, '"');
  return undefined;
}
