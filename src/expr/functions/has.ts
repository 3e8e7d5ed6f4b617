/**
 * `has(map, key)`: whether the map holds the key, null value or not. For a PATCH, where a body
 * field sent as `null` (clear it) and a field left out (keep it) read the same as
 * `ctx.request.body.x`: `has(ctx.request.body, "x")`. False for null (no map at all); any other
 * value than a map is an error, as in `lookup`.
 */
import { obj, str } from './args.js';
import { defineFunction } from './types.js';

export const has = defineFunction({
  name: 'has',
  params: ['map', 'key'],
  impl: (args) => {
    const key = str(args, 1);
    if (args[0] === null || args[0] === undefined) return false;
    return Object.hasOwn(obj(args, 0), key);
  },
});
