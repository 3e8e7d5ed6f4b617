/** `trim_space(str)`: removes white space from both ends. */
import { str } from './args.js';
import { defineFunction } from './types.js';

export const trimSpace = defineFunction({ name: 'trim_space', params: ['str'], impl: (args) => str(args, 0).trim() });
