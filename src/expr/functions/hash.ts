/** `sha256(str)`, `md5(str)` and `hmac_sha256(key, message)`: lower-case hex digests of UTF-8 text. */
import { createHash, createHmac } from 'node:crypto';
import { str } from './args.js';
import { defineFunction } from './types.js';

export const sha256 = defineFunction({
  name: 'sha256',
  params: ['str'],
  impl: (args) => createHash('sha256').update(str(args, 0), 'utf8').digest('hex'),
});

export const md5 = defineFunction({
  name: 'md5',
  params: ['str'],
  impl: (args) => createHash('md5').update(str(args, 0), 'utf8').digest('hex'),
});

export const hmacSha256 = defineFunction({
  name: 'hmac_sha256',
  params: ['key', 'message'],
  impl: (args) => createHmac('sha256', str(args, 0)).update(str(args, 1), 'utf8').digest('hex'),
});
