/** `merge(objects...)`: later objects win; null arguments are skipped, as Terraform's merge does. */
import { FunctionArgError } from '../errors.js';
import { isObject, setKey, typeName } from '../values.js';
import { defineFunction } from './types.js';

export const merge = defineFunction({
  name: 'merge',
  params: [],
  variadic: 'maps',
  impl: (args) => {
    const out: Record<string, unknown> = {};
    args.forEach((a, i) => {
      if (a === null || a === undefined) return;
      if (!isObject(a)) throw new FunctionArgError(i, `object required, not ${typeName(a)}`);
      for (const k of Object.keys(a)) setKey(out, k, a[k]);
    });
    return out;
  },
});
