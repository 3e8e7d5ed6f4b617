/** `merge(objects...)`: later objects win; null arguments are skipped, as Terraform's merge does. */
import { reserveItems } from '../budget.js';
import { FunctionArgError } from '../errors.js';
import { isObject, setKey, typeName } from '../values.js';
import { defineFunction } from './types.js';

export const merge = defineFunction({
  name: 'merge',
  params: [],
  variadic: 'maps',
  impl: (args, budget) => {
    const out: Record<string, unknown> = {};
    args.forEach((a, i) => {
      if (a === null || a === undefined) return;
      if (!isObject(a)) throw new FunctionArgError(i, `object required, not ${typeName(a)}`);
      const keys = Object.keys(a);
      // The members copied are items built, charged to the size budget (budget.ts).
      reserveItems(budget, keys.length);
      for (const k of keys) setKey(out, k, a[k]);
    });
    return out;
  },
});
