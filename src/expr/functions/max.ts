/** `max(numbers...)`: the greatest of at least one number. */
import { extremum } from './args.js';
import { defineFunction } from './types.js';

export const max = defineFunction({ name: 'max', params: [], variadic: 'numbers', impl: (args) => extremum(args, Math.max) });
