/**
 * `parse_int(str, base)`: an integer written in base 2..36, with an optional sign; every character
 * must be a digit of the base (unlike JS parseInt, which stops at the first bad one).
 */
import { FunctionArgError } from '../errors.js';
import { int, str } from './args.js';
import { defineFunction } from './types.js';

export const parseIntFunction = defineFunction({
  name: 'parse_int',
  params: ['number', 'base'],
  impl: (args) => {
    const s = str(args, 0);
    const base = int(args, 1);
    if (base < 2 || base > 36) throw new FunctionArgError(1, 'base must be a whole number between 2 and 36 inclusive');
    let i = 0;
    let sign = 1n;
    if (s[0] === '-' || s[0] === '+') {
      if (s[0] === '-') sign = -1n;
      i = 1;
    }
    if (i >= s.length) throw new FunctionArgError(0, `cannot parse ${JSON.stringify(s)} as a base ${base} integer`);
    let n = 0n;
    const b = BigInt(base);
    for (; i < s.length; i++) {
      const d = Number.parseInt(s[i]!, 36);
      if (Number.isNaN(d) || d >= base) throw new FunctionArgError(0, `cannot parse ${JSON.stringify(s)} as a base ${base} integer`);
      n = n * b + BigInt(d);
    }
    const r = Number(sign * n);
    return r === 0 ? 0 : r;
  },
});
