/**
 * `json_encode(value)`: the value as JSON text. Measured against the size budget before it is
 * written (json-size.ts): a value holding the same large object many times is small in memory and
 * huge as text.
 *
 * As Terraform's jsonencode (Go's encoder), `<`, `>`, `&`, U+2028 and U+2029 in strings are written
 * as `\u003c`, `\u003e`, `\u0026`, `\u2028` and `\u2029`, so the text is safe inside HTML and
 * JavaScript source. Each such character adds 5 characters, charged to the budget.
 */
import { type ExprBudget, reserveChars } from '../budget.js';
import { jsonText } from '../json-size.js';
import { defineFunction } from './types.js';

const ESCAPED = /[<>&\u2028\u2029]/g;
const unicodeEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** JSON text with Terraform's escapes (also used by format's `%#v`). */
export function terraformJson(value: unknown, budget: ExprBudget): string {
  const text = jsonText(value, budget);
  const n = text.match(ESCAPED)?.length ?? 0;
  if (n === 0) return text;
  reserveChars(budget, 5 * n);
  return text.replace(ESCAPED, unicodeEscape);
}

export const jsonEncode = defineFunction({
  name: 'json_encode',
  params: ['value'],
  impl: (args, budget) => terraformJson(args[0] ?? null, budget),
});
