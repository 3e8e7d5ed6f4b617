/** `json_decode(text)`: the value a JSON text denotes; invalid JSON is an argument error. */
import { FunctionArgError } from '../errors.js';
import { str } from './args.js';
import { defineFunction } from './types.js';

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
