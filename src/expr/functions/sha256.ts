/** `sha256(str)`: lower-case hex SHA-256 of the UTF-8 text. */
import { createHash } from 'node:crypto';
import { str } from './args.js';
import { defineFunction } from './types.js';

export const sha256 = defineFunction({
  name: 'sha256',
  params: ['str'],
  impl: (args) => createHash('sha256').update(str(args, 0), 'utf8').digest('hex'),
});
