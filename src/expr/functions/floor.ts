/** `floor(num)`: the greatest whole number not above num. */
import { num } from './args.js';
import { defineFunction } from './types.js';

export const floor = defineFunction({ name: 'floor', params: ['num'], impl: (args) => Math.floor(num(args, 0)) });
