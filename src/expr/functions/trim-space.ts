/**
 * `trim_space(str)`: removes white space from both ends, as Terraform's trimspace (Go's
 * strings.TrimSpace): Unicode White_Space, which counts U+0085 (next line) and not U+FEFF (the byte
 * order mark), unlike JavaScript's trim(). A scan from each end: linear in the string.
 */
import { str } from './args.js';
import { defineFunction } from './types.js';

function isSpace(c: number): boolean {
  if (c <= 0xa0) return (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0x85 || c === 0xa0;
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

export const trimSpace = defineFunction({
  name: 'trim_space',
  params: ['str'],
  impl: (args) => {
    const s = str(args, 0);
    let start = 0;
    let end = s.length;
    while (start < end && isSpace(s.charCodeAt(start))) start++;
    while (end > start && isSpace(s.charCodeAt(end - 1))) end--;
    return start === 0 && end === s.length ? s : s.slice(start, end);
  },
});
