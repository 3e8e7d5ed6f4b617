/** `upper(str)`: the string in upper case (Unicode-aware). */
import { str } from './args.js';
import { defineFunction } from './types.js';

export const upper = defineFunction({ name: 'upper', params: ['str'], impl: (args) => str(args, 0).toUpperCase() });
