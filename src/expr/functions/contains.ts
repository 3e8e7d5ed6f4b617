/** `contains(list, value)`: whether an element equals value (HCL equality: no conversion). */
import { reserveItems } from '../budget.js';
import { equals } from '../values.js';
import { list } from './args.js';
import { defineFunction } from './types.js';

export const contains = defineFunction({
  name: 'contains',
  params: ['list', 'value'],
  impl: (args, budget) => {
    const l = list(args, 0);
    const v = args[1] ?? null;
    // A scan of a request list inside a loop over it is quadratic work: charged to the budget.
    reserveItems(budget, l.length);
    for (const e of l) if (equals(e, v)) return true;
    return false;
  },
});
