/** `lower(s)` and `upper(s)`, Unicode-aware. */
import { str } from './args.js';
import { defineFunction } from './types.js';

export const lower = defineFunction({ name: 'lower', params: ['str'], impl: (args) => str(args, 0).toLowerCase() });
export const upper = defineFunction({ name: 'upper', params: ['str'], impl: (args) => str(args, 0).toUpperCase() });
