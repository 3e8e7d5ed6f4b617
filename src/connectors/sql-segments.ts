/**
 * SQL text cut into what svc's own readers of it must tell apart: code, strings, quoted identifiers
 * and comments. The readers (the sql step's `@name` parameters, the OpenAPI document's result
 * columns, the transaction control a migration may hold, where an engine's refusal points) each look
 * into the kinds they need; none of them parses SQL.
 *
 * The rules are PostgreSQL's, which SQLite and MySQL share where valid SQL of theirs can meet them:
 * - `'…'` a string, `''` a quote inside it; `E'…'` (PostgreSQL's escape string, the E not ending a
 *   longer word) also takes backslash escapes, so `E'it\'s'` is one string;
 * - `"…"` a quoted identifier, `""` a quote inside it;
 * - `$tag$…$tag$` a dollar-quoted string (the tag empty or an identifier; not right after a
 *   character of an identifier, so `price$usd$` is a word);
 * - `--` a comment to the end of the line (the line end is code), `/* … *\/` a comment, nested only
 *   with `nestedComments` (PostgreSQL's block comments nest; SQLite's and MySQL's end at the first
 *   `*\/`, so a reader that cannot tell the engine keeps the default, which errs loudly on
 *   PostgreSQL rather than silently elsewhere).
 *
 * Not understood, as before this module: MySQL's backslash escapes in plain `'…'` strings and its
 * backquoted identifiers.
 */

export type SqlSegmentKind = 'code' | 'string' | 'identifier' | 'comment';

export interface SqlSegment {
  readonly kind: SqlSegmentKind;
  /** UTF-16 offsets into the text: `text.slice(start, end)`. */
  readonly start: number;
  readonly end: number;
  /** A string, quoted identifier or block comment the text ends inside. */
  readonly open?: true;
}

export interface SqlSegmentOptions {
  /** PostgreSQL: `/* a /* b *\/ c *\/` is one comment. */
  readonly nestedComments?: boolean;
}

const IDENTIFIER_CHAR = /[\w$]/;
const DOLLAR_TAG = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/;

/** The segments of `sql` in order, covering it whole; code segments are never empty. */
export function sqlSegments(sql: string, options: SqlSegmentOptions = {}): SqlSegment[] {
  const out: SqlSegment[] = [];
  const n = sql.length;
  let code = 0;
  let i = 0;
  const push = (kind: Exclude<SqlSegmentKind, 'code'>, end: number, open: boolean): void => {
    if (code < i) out.push({ kind: 'code', start: code, end: i });
    out.push({ kind, start: i, end, ...(open ? { open: true as const } : {}) });
    i = end;
    code = end;
  };
  while (i < n) {
    const c = sql[i]!;
    if (c === "'") {
      const escapes = (sql[i - 1] === 'E' || sql[i - 1] === 'e') && !IDENTIFIER_CHAR.test(sql[i - 2] ?? ' ');
      const end = quotedEnd(sql, i, "'", escapes);
      push('string', end ?? n, end === undefined);
    } else if (c === '"') {
      const end = quotedEnd(sql, i, '"', false);
      push('identifier', end ?? n, end === undefined);
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      push('comment', end < 0 ? n : end, false);
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = blockCommentEnd(sql, i, options.nestedComments === true);
      push('comment', end ?? n, end === undefined);
    } else if (c === '$' && !IDENTIFIER_CHAR.test(sql[i - 1] ?? ' ') && DOLLAR_TAG.test(sql.slice(i, i + 66))) {
      const tag = DOLLAR_TAG.exec(sql.slice(i, i + 66))![0];
      const close = sql.indexOf(tag, i + tag.length);
      push('string', close < 0 ? n : close + tag.length, close < 0);
    } else {
      i++;
    }
  }
  if (code < n) out.push({ kind: 'code', start: code, end: n });
  return out;
}

/** The index after the quote closing the one at `start` (a doubled quote is inside), or undefined. */
function quotedEnd(sql: string, start: number, quote: string, backslashEscapes: boolean): number | undefined {
  for (let j = start + 1; j < sql.length; j++) {
    const c = sql[j];
    if (backslashEscapes && c === '\\') j++;
    else if (c === quote) {
      if (sql[j + 1] !== quote) return j + 1;
      j++;
    }
  }
  return undefined;
}

/** The index after the `*\/` closing the comment at `start`, or undefined. */
function blockCommentEnd(sql: string, start: number, nested: boolean): number | undefined {
  if (!nested) {
    const end = sql.indexOf('*/', start + 2);
    return end < 0 ? undefined : end + 2;
  }
  let depth = 0;
  for (let j = start; j < sql.length - 1; j++) {
    if (sql[j] === '/' && sql[j + 1] === '*') {
      depth++;
      j++;
    } else if (sql[j] === '*' && sql[j + 1] === '/') {
      depth--;
      j++;
      if (depth === 0) return j + 1;
    }
  }
  return undefined;
}
