/**
 * `json_decode(text)`: the value a JSON text denotes; invalid JSON is an argument error. So is a
 * number too large for a double (`1e400`): JSON.parse makes it Infinity, which JSON output cannot
 * carry and arithmetic refuses, so it is refused here, where the text is. And so is nesting deeper
 * than MAX_JSON_DEPTH (the bound of request bodies): every later recursive walk of the value
 * (serialising a constant response at boot, writing it per request) would overflow the stack.
 */
import { FunctionArgError } from '../errors.js';
import { str } from './args.js';
import { defineFunction } from './types.js';

/** Objects and arrays nested deeper are refused; request bodies have the same bound (src/schema). */
export const MAX_JSON_DEPTH = 64;

/** A text that may hold a number beyond the double range: an exponent of 3+ digits or 309+ digits in a row. */
const MAYBE_HUGE = /[eE]\+?\d{3}|\d{309}/;

const finiteOnly = (_key: string, v: unknown): unknown => {
  if (typeof v === 'number' && !Number.isFinite(v)) throw new FunctionArgError(0, 'a number in the JSON text is too large');
  return v;
};

export const jsonDecode = defineFunction({
  name: 'json_decode',
  params: ['text'],
  impl: (args) => {
    const text = str(args, 0);
    if (nestsDeeper(text, MAX_JSON_DEPTH)) {
      throw new FunctionArgError(0, `the JSON text nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);
    }
    try {
      return JSON.parse(text, MAYBE_HUGE.test(text) ? finiteOnly : undefined) as unknown;
    } catch (e) {
      if (e instanceof SyntaxError) throw new FunctionArgError(0, `invalid JSON: ${e.message}`);
      throw e;
    }
  },
});

/**
 * True when `[` / `{` nest deeper than `max` outside strings. A document of depth d has at least 2d
 * characters, so short texts skip the scan; an unterminated string ends it (JSON.parse reports it).
 */
function nestsDeeper(text: string, max: number): boolean {
  const n = text.length;
  if (n <= 2 * max) return false;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // The closing quote: one not preceded by an odd run of backslashes.
      let j = i;
      for (;;) {
        j = text.indexOf('"', j + 1);
        if (j < 0) return false;
        let k = j - 1;
        while (text.charCodeAt(k) === 0x5c /* \ */) k--;
        if ((j - 1 - k) % 2 === 0) break;
      }
      i = j;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}
