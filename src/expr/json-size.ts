/**
 * How long a value is as JSON text, measured without writing it: a list built by a `for` can hold
 * one large object per element, and `JSON.stringify` would build hundreds of megabytes (or stall into
 * a RangeError) before its length could be checked. The walk stops once the limit is passed.
 * A lower bound of `JSON.stringify`'s length (numbers count one character, escapes none), so callers
 * still check the length of what they then write.
 */
import { sourceTextOf, stringifyExact } from '../json/index.js';
import { BudgetExceeded, type ExprBudget } from './budget.js';

/**
 * The longest response body a pipeline may send, in characters (issue 15, class 4): the one bound
 * the `respond` step (which names itself in the 500) and the HTTP adapter (for every other answer)
 * hold bodies to. Larger answers are what `stream` steps are for.
 */
export const MAX_RESPONSE_CHARS = 32 * 1024 * 1024;

/** A body over MAX_RESPONSE_CHARS: a 500, logged with this message. */
export class ResponseTooLarge extends Error {
  override readonly name = 'ResponseTooLarge';
  constructor() {
    super(`the response body is longer than ${MAX_RESPONSE_CHARS.toLocaleString('en-US')} characters; a stream step can send more`);
  }
}

/**
 * A response body's JSON text (BigInts exact), refused before and after writing when too long. A
 * body parsed from JSON text as it is (a cached value) is that text.
 */
export function responseJson(body: unknown): string {
  const source = sourceTextOf(body);
  if (source !== undefined) {
    if (source.length > MAX_RESPONSE_CHARS) throw new ResponseTooLarge();
    return source;
  }
  if (jsonLengthExceeds(body, MAX_RESPONSE_CHARS)) throw new ResponseTooLarge();
  const text = stringifyExact(body);
  if (text.length > MAX_RESPONSE_CHARS) throw new ResponseTooLarge();
  return text;
}

/** True when `value` written as JSON is certainly longer than `limit` characters. */
export function jsonLengthExceeds(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) return walkExceeds(value, limit);
  // The usual body, an object of scalars, is measured without the walk's queue (about half the
  // cost); the first member that is an object or a list hands the whole value to the walk.
  let total = 1;
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    const v = (value as Record<string, unknown>)[k];
    if (typeof v === 'object' && v !== null) return walkExceeds(value, limit);
    total += k.length + 4 + (typeof v === 'string' ? v.length + 2 : 1);
    if (total > limit) return true;
  }
  return total > limit;
}

function walkExceeds(value: unknown, limit: number): boolean {
  let total = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'string') total += v.length + 2;
    else if (typeof v !== 'object' || v === null) total += 1;
    else if (v instanceof Date) total += 26;
    else if (Array.isArray(v)) {
      // Brackets and commas, checked before the elements are queued.
      total += v.length + 1;
      if (total > limit) return true;
      for (let i = 0; i < v.length; i++) pending.push(v[i]);
    } else {
      total += 1;
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue;
        total += k.length + 4;
        if (total > limit) return true;
        pending.push((v as Record<string, unknown>)[k]);
      }
    }
    if (total > limit) return true;
  }
  return false;
}

/** `JSON.stringify` for expression functions: refused (BudgetExceeded) when it cannot fit the budget. */
export function jsonText(value: unknown, budget: ExprBudget): string {
  if (jsonLengthExceeds(value, budget.chars)) throw new BudgetExceeded('chars');
  return JSON.stringify(value);
}
