/** `abs(num)`: the absolute value. */
import { num } from './args.js';
import { defineFunction } from './types.js';

export const abs = defineFunction({ name: 'abs', params: ['num'], impl: (args) => Math.abs(num(args, 0)) });
