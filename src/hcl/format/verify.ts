/**
 * The formatter's proof of its own work, checked on every file before its text is returned: the
 * formatted text parses to the same syntax tree, positions aside, and holds the same tokens and
 * comments in the same order, newlines aside. A difference is a bug in the formatter; the caller
 * gets an error instead of a file whose meaning changed.
 */
import type { File } from '../ast.js';
import { T } from '../tokens.js';
import { COMMENT, type FmtToken } from './tokens.js';

/** Keys that say where a node is, not what it is. */
function isPositionKey(key: string): boolean {
  return key === 'range' || key === 'labelRanges' || key.endsWith('Range');
}

export function sameTree(a: File, b: File): boolean {
  return sameValue(a.body, b.body);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    return a.length === bs.length && a.every((x, i) => sameValue(x, bs[i]));
  }
  const ak = Object.keys(a).filter((k) => !isPositionKey(k) && (a as Record<string, unknown>)[k] !== undefined);
  const bk = Object.keys(b).filter((k) => !isPositionKey(k) && (b as Record<string, unknown>)[k] !== undefined);
  if (ak.length !== bk.length) return false;
  return ak.every((k) => Object.hasOwn(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * Same token texts in the same order, newline tokens aside (blank lines may come and go), and a line
 * comment's own newline too (the last line of a file gains one).
 */
export function sameTokens(a: readonly FmtToken[], b: readonly FmtToken[]): boolean {
  const x = a.filter((t) => t.type !== T.Newline);
  const y = b.filter((t) => t.type !== T.Newline);
  return x.length === y.length && x.every((t, i) => t.type === y[i]!.type && textOf(t) === textOf(y[i]!));
}

function textOf(t: FmtToken): string {
  if (t.type !== COMMENT || !t.text.endsWith('\n')) return t.text;
  return t.text.slice(0, t.text.endsWith('\r\n') ? -2 : -1);
}
