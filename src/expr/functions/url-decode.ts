/** `url_decode(str)`: the inverse of url_encode ("+" is a space). */
import { FunctionArgError } from '../errors.js';
import { str } from './args.js';
import { defineFunction } from './types.js';

export const urlDecode = defineFunction({
  name: 'url_decode',
  params: ['str'],
  impl: (args) => {
    try {
      return decodeURIComponent(str(args, 0).replace(/\+/g, ' '));
    } catch {
      throw new FunctionArgError(0, 'invalid URL escape sequence');
    }
  },
});
