/**
 * Object and list functions: `merge(objects...)`, `lookup(map, key[, default])`, `keys(obj)`,
 * `values(obj)` (ordered by key, as HCL), `contains(list, value)` (HCL equality).
 */
import { FunctionArgError } from '../errors.js';
import { equals, isObject, setKey, sortedKeys, typeName } from '../values.js';
import { list, obj, str } from './args.js';
import { defineFunction } from './types.js';

/** Later objects win; null arguments are skipped, as Terraform's merge does. */
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

/** Missing key: the default, else null (the product's rule for missing keys; Terraform errors). */
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

export const keys = defineFunction({
  name: 'keys',
  params: ['inputMap'],
  impl: (args) => sortedKeys(obj(args, 0)),
});

export const values = defineFunction({
  name: 'values',
  params: ['mapping'],
  impl: (args) => {
    const o = obj(args, 0);
    return sortedKeys(o).map((k) => o[k] ?? null);
  },
});

export const contains = defineFunction({
  name: 'contains',
  params: ['list', 'value'],
  impl: (args) => {
    const l = list(args, 0);
    const v = args[1] ?? null;
    for (const e of l) if (equals(e, v)) return true;
    return false;
  },
});
