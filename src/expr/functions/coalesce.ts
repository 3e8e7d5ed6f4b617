/**
 * `coalesce(values...)`: the first argument that is not null. When every argument is null the result
 * is null (HCL errors): `coalesce(ctx.request.query.limit, 20)` is the common use and null-safety
 * matches the rest of the product.
 */
import { defineFunction } from './types.js';

export const coalesce = defineFunction({
  name: 'coalesce',
  params: [],
  variadic: 'vals',
  impl: (args) => {
    for (const a of args) if (a !== null && a !== undefined) return a;
    return null;
  },
});
