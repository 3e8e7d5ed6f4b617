/** `trim_suffix(str, suffix)`: removes suffix once, when the string ends with it. */
import { str } from './args.js';
import { defineFunction } from './types.js';

export const trimSuffix = defineFunction({
  name: 'trim_suffix',
  params: ['str', 'suffix'],
  impl: (args) => {
    const s = str(args, 0);
    const p = str(args, 1);
    return p.length > 0 && s.endsWith(p) ? s.slice(0, s.length - p.length) : s;
  },
});
