/** `split(separator, str)`: the parts between separators (argument order as HCL/Terraform). */
import { str } from './args.js';
import { defineFunction } from './types.js';

export const split = defineFunction({
  name: 'split',
  params: ['separator', 'str'],
  impl: (args) => {
    const sep = str(args, 0);
    const s = str(args, 1);
    // An empty separator splits into characters (code points, not UTF-16 halves).
    return sep === '' ? Array.from(s) : s.split(sep);
  },
});
