/** `keys(object)`: the keys in lexicographic order, as HCL. */
import { sortedKeys } from '../values.js';
import { obj } from './args.js';
import { defineFunction } from './types.js';

export const keys = defineFunction({
  name: 'keys',
  params: ['inputMap'],
  impl: (args) => sortedKeys(obj(args, 0)),
});
