/** `lookup(map, key[, default])`: a missing key gives the default, else null (the product's rule for missing keys; Terraform errors). */
import { obj, str } from './args.js';
import { defineFunction } from './types.js';

export const lookup = defineFunction({
  name: 'lookup',
  params: ['inputMap', 'key'],
  optional: ['default'],
  impl: (args) => {
    const m = args[0];
    const k = str(args, 1);
    const fallback = args.length > 2 ? (args[2] ?? null) : null;
    if (m === null || m === undefined) return fallback;
    const o = obj(args, 0);
    return Object.hasOwn(o, k) && o[k] !== undefined ? o[k] : fallback;
  },
});
