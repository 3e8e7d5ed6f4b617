/** `trim_prefix(str, prefix)`: removes prefix once, when the string starts with it. */
import { str } from './args.js';
import { defineFunction } from './types.js';

export const trimPrefix = defineFunction({
  name: 'trim_prefix',
  params: ['str', 'prefix'],
  impl: (args) => {
    const s = str(args, 0);
    const p = str(args, 1);
    return s.startsWith(p) ? s.slice(p.length) : s;
  },
});
