/** `md5(str)`: lower-case hex MD5 of the UTF-8 text. */
import { createHash } from 'node:crypto';
import { str } from './args.js';
import { defineFunction } from './types.js';

export const md5 = defineFunction({
  name: 'md5',
  params: ['str'],
  impl: (args) => createHash('md5').update(str(args, 0), 'utf8').digest('hex'),
});
