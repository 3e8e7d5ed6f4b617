/** `min(numbers...)`: the smallest of at least one number. */
import { extremum } from './args.js';
import { defineFunction } from './types.js';

export const min = defineFunction({ name: 'min', params: [], variadic: 'numbers', impl: (args) => extremum(args, Math.min) });
