/**
 * `json_encode(value)`: the value as JSON text, measured against the size budget before it is written
 * (json-size.ts). As Terraform's jsonencode, `<`, `>`, `&`, U+2028 and U+2029 are `\u`-escaped, so the
 * text is safe inside HTML and JavaScript; each adds 5 characters, charged to the budget.
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
