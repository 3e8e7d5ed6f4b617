/** `values(object)`: the values ordered by key, as HCL. */
import { sortedKeys } from '../values.js';
import { obj } from './args.js';
import { defineFunction } from './types.js';

export const values = defineFunction({
  name: 'values',
  params: ['mapping'],
  impl: (args) => {
    const o = obj(args, 0);
    return sortedKeys(o).map((k) => o[k] ?? null);
  },
});
