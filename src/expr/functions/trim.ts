/**
 * `trim(str, cutset)` removes any of the characters of cutset from both ends (HCL's trim);
 * `trim_space(str)` removes white space; `trim_prefix` / `trim_suffix` remove one exact occurrence.
 */
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

export const trimSpace = defineFunction({ name: 'trim_space', params: ['str'], impl: (args) => str(args, 0).trim() });

export const trimPrefix = defineFunction({
  name: 'trim_prefix',
  params: ['str', 'prefix'],
  impl: (args) => {
    const s = str(args, 0);
    const p = str(args, 1);
    return s.startsWith(p) ? s.slice(p.length) : s;
  },
});

export const trimSuffix = defineFunction({
  name: 'trim_suffix',
  params: ['str', 'suffix'],
  impl: (args) => {
    const s = str(args, 0);
    const p = str(args, 1);
    return p.length > 0 && s.endsWith(p) ? s.slice(0, s.length - p.length) : s;
  },
});
