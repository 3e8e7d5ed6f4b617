/**
 * Named parameters in SQL text: `@name` in the manifest, the engine's placeholders on the wire (`$n`
 * for PostgreSQL, `?n` for SQLite, `?` for MySQL). Values are always bound, never interpolated; the
 * same name twice binds once (MySQL, which has no numbered placeholders, is sent the value twice).
 * Quoted strings, quoted identifiers, comments and dollar-quoted bodies are skipped, and so are
 * operators such as `@>`, `@@` and `||/@`.
 */
import { sqlSegments, type PlaceholderStyle } from '../../connectors/index.js';

const PARAMETER = /@([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * Calls `found` for every `@name` in code (src/connectors/sql-segments.ts), with its offsets in
 * `sql`. Not one after `@` or a character of a word (`@@x`, `a@b`). Block comments do not nest: the
 * text may be any engine's, and of the two mistakes a nested `/*` can cause, binding inside a
 * PostgreSQL comment fails loudly (an unused parameter), leaving a MySQL `@x` unbound would not (a
 * session variable).
 */
function scanParameters(sql: string, found: (name: string, start: number, end: number) => void): void {
  for (const segment of sqlSegments(sql)) {
    if (segment.kind !== 'code') continue;
    for (const m of sql.slice(segment.start, segment.end).matchAll(PARAMETER)) {
      const at = segment.start + m.index;
      if (/[\w$@]/.test(sql[at - 1] ?? ' ')) continue;
      found(m[1]!, at, at + m[0].length);
    }
  }
}

/** Distinct `@name` parameters in order of first use. */
export function sqlParameters(sql: string): string[] {
  const out: string[] = [];
  scanParameters(sql, (name) => {
    if (!out.includes(name)) out.push(name);
  });
  return out;
}

/**
 * The text with each `@name` replaced by `$n`, n being the name's place in `parameters` (1-based):
 * what the server parses, once per connection for a prepared statement.
 */
export function toPositional(sql: string, parameters: readonly string[]): string {
  let out = '';
  let last = 0;
  scanParameters(sql, (name, start, end) => {
    const n = parameters.indexOf(name);
    if (n < 0) return;
    out += sql.slice(last, start) + '$' + (n + 1);
    last = end;
  });
  return out + sql.slice(last);
}

/**
 * The text an engine parses, and for `question` placeholders (one value per occurrence) which
 * parameter each occurrence binds (indexes into `parameters`); undefined when the values go in
 * `parameters`' order.
 */
export function toPlaceholders(
  sql: string,
  parameters: readonly string[],
  style: PlaceholderStyle,
): { readonly text: string; readonly occurrences: readonly number[] | undefined } {
  if (style === 'dollar') return { text: toPositional(sql, parameters), occurrences: undefined };
  let out = '';
  let last = 0;
  const occurrences: number[] = [];
  scanParameters(sql, (name, start, end) => {
    const n = parameters.indexOf(name);
    if (n < 0) return;
    out += sql.slice(last, start) + (style === 'numbered' ? `?${n + 1}` : '?');
    occurrences.push(n);
    last = end;
  });
  return { text: out + sql.slice(last), occurrences: style === 'question' ? occurrences : undefined };
}

/**
 * `toPlaceholders`' text (`toPositional`'s by default), with the index in `sql` each of its UTF-16
 * units comes from (a `$n`, `?n` or `?` from its `@name`'s `@`): how a place the engine names in the
 * statement is found in the manifest's query.
 */
export function positionalOrigins(sql: string, parameters: readonly string[], style: PlaceholderStyle = 'dollar'): { text: string; origins: number[] } {
  let text = '';
  const origins: number[] = [];
  let last = 0;
  const copy = (to: number): void => {
    for (let i = last; i < to; i++) origins.push(i);
    text += sql.slice(last, to);
  };
  scanParameters(sql, (name, start, end) => {
    const n = parameters.indexOf(name);
    if (n < 0) return;
    copy(start);
    const placeholder = style === 'question' ? '?' : (style === 'numbered' ? '?' : '$') + (n + 1);
    for (let k = 0; k < placeholder.length; k++) origins.push(start);
    text += placeholder;
    last = end;
  });
  copy(sql.length);
  return { text, origins };
}

/**
 * A value as a bound parameter: as the driver binds it (lists as arrays, for `= ANY(@ids)`; maps as
 * JSON text, for json/jsonb), a missing value as NULL.
 */
export function toParameter(value: unknown): unknown {
  return value === undefined ? null : value;
}
