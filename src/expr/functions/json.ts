/** `json_encode(value)` and `json_decode(text)`. */
import { FunctionArgError } from '../errors.js';
import { str } from './args.js';
import { defineFunction } from './types.js';

export const jsonEncode = defineFunction({
  name: 'json_encode',
  params: ['value'],
  impl: (args) => JSON.stringify(args[0] ?? null),
});

export const jsonDecode = defineFunction({
  name: 'json_decode',
  params: ['text'],
  impl: (args) => {
    try {
      return JSON.parse(str(args, 0)) as unknown;
    } catch (e) {
      if (e instanceof SyntaxError) throw new FunctionArgError(0, `invalid JSON: ${e.message}`);
      throw e;
    }
  },
});
