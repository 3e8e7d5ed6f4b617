/** `trim(str, cutset)`: removes any of the characters of cutset from both ends (HCL's trim). */
import { str } from './args.js';
import { defineFunction } from './types.js';

export const trim = defineFunction({
  name: 'trim',
  params: ['str', 'cutset'],
  impl: (args) => {
    const chars = Array.from(str(args, 0));
    const cut = new Set(Array.from(str(args, 1)));
    let start = 0;
    let end = chars.length;
    while (start < end && cut.has(chars[start]!)) start++;
    while (end > start && cut.has(chars[end - 1]!)) end--;
    return chars.slice(start, end).join('');
  },
});
