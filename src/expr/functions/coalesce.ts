/**
 * `coalesce(values...)`: the first argument that is neither null nor an empty string, as Terraform's
 * coalesce. When there is none the result is null (Terraform errors): `coalesce(ctx.request.query.limit, 20)`
 * is the common use and null-safety matches the rest of the product. Arguments keep their own types
 * (Terraform converts them all to one type first: `coalesce(1, "a")` is "1" there, 1 here).
 */
import { defineFunction } from './types.js';

export const coalesce = defineFunction({
  name: 'coalesce',
  params: [],
  variadic: 'vals',
  impl: (args) => {
    for (const a of args) if (a !== null && a !== undefined && a !== '') return a;
    return null;
  },
});
