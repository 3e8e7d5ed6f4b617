/** `base64_encode(str)`: the UTF-8 bytes of the string in base64. */
import { str } from './args.js';
import { defineFunction } from './types.js';

export const base64Encode = defineFunction({
  name: 'base64_encode',
  params: ['str'],
  impl: (args) => Buffer.from(str(args, 0), 'utf8').toString('base64'),
});
