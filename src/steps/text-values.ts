/**
 * Values in and out of the store (DECISIONS.md §1): a string is stored as it is, anything else as
 * its JSON text (BigInts exact); text read back (GET, SUBSCRIBE messages) that holds JSON is
 * decoded, so a cached row or a published object comes back as that object. The price of the rule:
 * a string that is itself JSON text ("42", "true", "{}") comes back decoded; store
 * `json_encode(s)` to keep such a string a string.
 */
import { parseKeepingText, stringifyExact } from '../json/index.js';

export function encodeValue(value: unknown): string {
  return typeof value === 'string' ? value : stringifyExact(value ?? null);
}

/** First characters a JSON text can start with (after white space). */
const JSON_START = /^[\s]*(?:[{["\-0-9]|true\s*$|false\s*$|null\s*$)/;

/** An integer as Redis writes one (INCR): exact past 2^53 as a BigInt, as INCR's own output is. */
const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

export function decodeValue(text: string): unknown {
  if (INTEGER.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }
  // Most cached text is JSON or plainly not: a cheap look at its start spares a thrown SyntaxError.
  if (!JSON_START.test(text)) return text;
  try {
    // The text is kept with an object or list: a body that is this value is written as this text.
    return parseKeepingText(text);
  } catch {
    return text;
  }
}

/**
 * A key or channel as the expression gave it: text, or a number or boolean written as text. Null
 * and structured values are refused (a key `[object Object]` or `null` would be a silent bug).
 */
export function textOperand(value: unknown, what: string, step: string): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value);
    default:
      throw new TypeError(`${step}: the ${what} must be a string, got ${value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value}`);
  }
}
