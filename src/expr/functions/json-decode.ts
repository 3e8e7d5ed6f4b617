/**
 * `json_decode(text)`: the value a JSON text denotes; invalid JSON is an argument error. So is a
 * number too large for a double (`1e400`): JSON.parse makes it Infinity, which JSON output cannot
 * carry and arithmetic refuses, so it is refused here, where the text is. And so is nesting deeper
 * than MAX_JSON_DEPTH (the bound of request bodies): every later recursive walk of the value
 * (serialising a constant response at boot, writing it per request) would overflow the stack.
 */
import { jsonNestsDeeper } from '../../json/index.js';
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
    if (jsonNestsDeeper(text, MAX_JSON_DEPTH)) {
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
