/** `hmac_sha256(key, message)`: lower-case hex HMAC-SHA256 of the UTF-8 message. */
import { createHmac } from 'node:crypto';
import { str } from './args.js';
import { defineFunction } from './types.js';

export const hmacSha256 = defineFunction({
  name: 'hmac_sha256',
  params: ['key', 'message'],
  impl: (args) => createHmac('sha256', str(args, 0)).update(str(args, 1), 'utf8').digest('hex'),
});
