/**
 * `parse_int(str, base)`: an integer written in base 2..62 with an optional sign, as Terraform's
 * parseint (Go's big.Int SetString): digits 0-9, then a-z, then A-Z; up to base 36 letters of either
 * case are the same digit, above it upper-case letters are the digits 36 to 61. Every character must
 * be a digit of the base (unlike JS parseInt, which stops at the first bad one).
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
    if (base < 2 || base > 62) throw new FunctionArgError(1, 'base must be a whole number between 2 and 62 inclusive');
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
      const d = digit(s.charCodeAt(i), base);
      if (d < 0 || d >= base) throw new FunctionArgError(0, `cannot parse ${JSON.stringify(s)} as a base ${base} integer`);
      n = n * b + BigInt(d);
    }
    const r = Number(sign * n);
    return r === 0 ? 0 : r;
  },
});

/** The value of a digit character in `base`, or -1. */
function digit(c: number, base: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x7a) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x5a) return c - 0x41 + (base <= 36 ? 10 : 36);
  return -1;
}
