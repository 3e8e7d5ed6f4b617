/** `lower(str)`: the string in lower case (Unicode-aware). */
import { str } from './args.js';
import { defineFunction } from './types.js';

export const lower = defineFunction({ name: 'lower', params: ['str'], impl: (args) => str(args, 0).toLowerCase() });
