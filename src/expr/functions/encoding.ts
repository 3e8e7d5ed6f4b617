/**
 * `base64_encode` / `base64_decode` (of UTF-8 text) and `url_encode` / `url_decode`
 * (query-string escaping as Go's url.QueryEscape: space is "+", only A-Z a-z 0-9 - _ . ~ stay).
 */
import { FunctionArgError } from '../errors.js';
import { str } from './args.js';
import { defineFunction } from './types.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const base64Encode = defineFunction({
  name: 'base64_encode',
  params: ['str'],
  impl: (args) => Buffer.from(str(args, 0), 'utf8').toString('base64'),
});

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

export const urlEncode = defineFunction({
  name: 'url_encode',
  params: ['str'],
  impl: (args) =>
    encodeURIComponent(str(args, 0))
      .replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
      .replace(/%20/g, '+'),
});

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
