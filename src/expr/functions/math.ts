/** `min(numbers...)`, `max(numbers...)` (at least one), `abs`, `ceil`, `floor`. */
import { FunctionError } from '../errors.js';
import { num } from './args.js';
import { defineFunction } from './types.js';

function extreme(args: readonly unknown[], pick: (a: number, b: number) => number): number {
  if (args.length === 0) throw new FunctionError('must pass at least one number');
  let r = num(args, 0);
  for (let i = 1; i < args.length; i++) r = pick(r, num(args, i));
  return r;
}

export const min = defineFunction({ name: 'min', params: [], variadic: 'numbers', impl: (args) => extreme(args, Math.min) });
export const max = defineFunction({ name: 'max', params: [], variadic: 'numbers', impl: (args) => extreme(args, Math.max) });
export const abs = defineFunction({ name: 'abs', params: ['num'], impl: (args) => Math.abs(num(args, 0)) });
export const ceil = defineFunction({ name: 'ceil', params: ['num'], impl: (args) => Math.ceil(num(args, 0)) + 0 });
export const floor = defineFunction({ name: 'floor', params: ['num'], impl: (args) => Math.floor(num(args, 0)) });
