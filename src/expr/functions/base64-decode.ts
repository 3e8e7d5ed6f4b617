/** `base64_decode(str)`: base64 decoded; the result must be UTF-8 text. */
import { FunctionArgError } from '../errors.js';
import { str } from './args.js';
import { defineFunction } from './types.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const base64Decode = defineFunction({
  name: 'base64_decode',
  params: ['str'],
  impl: (args) => {
    const s = str(args, 0);
    if (s.length % 4 !== 0 || !BASE64.test(s)) throw new FunctionArgError(0, 'failed to decode base64 data: invalid base64 text');
    try {
      return utf8.decode(Buffer.from(s, 'base64'));
    } catch {
      throw new FunctionArgError(0, 'the result of decoding the provided string is not valid UTF-8');
    }
  },
});
