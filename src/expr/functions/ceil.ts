/** `ceil(num)`: the smallest whole number not below num. */
import { num } from './args.js';
import { defineFunction } from './types.js';

export const ceil = defineFunction({ name: 'ceil', params: ['num'], impl: (args) => Math.ceil(num(args, 0)) + 0 });
