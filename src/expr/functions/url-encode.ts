/** `url_encode(str)`: query-string escaping as Go's url.QueryEscape (space is "+", only A-Z a-z 0-9 - _ . ~ stay). */
import { str } from './args.js';
import { defineFunction } from './types.js';

export const urlEncode = defineFunction({
  name: 'url_encode',
  params: ['str'],
  impl: (args) =>
    encodeURIComponent(str(args, 0))
      .replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
      .replace(/%20/g, '+'),
});
